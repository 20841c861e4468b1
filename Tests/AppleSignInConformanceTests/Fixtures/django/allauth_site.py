"""django-allauth with its Apple provider, configured as its documentation says."""
from common import *  # noqa: F401,F403
from common import BASE_APPS, BASE_MIDDLEWARE, CLIENT_ID, KEY_ID, TEAM_ID, TEAM_KEY_PEM

ROOT_URLCONF = "allauth_urls"
INSTALLED_APPS = BASE_APPS + [
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.apple",
]
MIDDLEWARE = BASE_MIDDLEWARE + ["allauth.account.middleware.AccountMiddleware"]
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
SOCIALACCOUNT_PROVIDERS = {
    "apple": {
        "APPS": [
            {
                "client_id": CLIENT_ID,
                "secret": KEY_ID,
                "key": TEAM_ID,
                "settings": {"certificate_key": TEAM_KEY_PEM},
            }
        ]
    }
}
