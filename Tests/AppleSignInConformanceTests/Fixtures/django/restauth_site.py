"""dj-rest-auth's social login API with django-allauth's Apple adapter: a mobile app's backend, set up as
dj-rest-auth's documentation says (token authentication; CLIENT_ID is the app's bundle id)."""
from common import *  # noqa: F401,F403
from common import ALLAUTH_APPLE_PROVIDERS, BASE_APPS, BASE_MIDDLEWARE

ROOT_URLCONF = "restauth_urls"
INSTALLED_APPS = BASE_APPS + [
    "rest_framework",
    "rest_framework.authtoken",
    "dj_rest_auth",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.apple",
    "dj_rest_auth.registration",
]
MIDDLEWARE = BASE_MIDDLEWARE + ["allauth.account.middleware.AccountMiddleware"]
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"]}
SOCIALACCOUNT_PROVIDERS = ALLAUTH_APPLE_PROVIDERS
