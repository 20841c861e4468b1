"""django-allauth with its Apple provider, configured as its documentation says."""
from common import *  # noqa: F401,F403
from common import ALLAUTH_APPLE_PROVIDERS, BASE_APPS, BASE_MIDDLEWARE

ROOT_URLCONF = "allauth_urls"
INSTALLED_APPS = BASE_APPS + [
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.apple",
]
MIDDLEWARE = BASE_MIDDLEWARE + ["allauth.account.middleware.AccountMiddleware"]
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
SOCIALACCOUNT_PROVIDERS = ALLAUTH_APPLE_PROVIDERS
