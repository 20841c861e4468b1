"""A Django project with django-allauth's Apple provider, configured as allauth's documentation says.

allauth hard-codes Apple's URLs (class attributes of its adapter) and issuer, so the only change a
test makes is ``point_allauth_at(base_url)``; the emulator then runs with ``issuer=https://appleid.apple.com``.
"""

from __future__ import annotations

from typing import Any

import django
from django.conf import settings

APPLE = "https://appleid.apple.com"


def configure(*, database: str, team_id: str, key_id: str, private_key_pem: str, client_id: str, bundle_id: str) -> None:
    """Django's settings for the example, then ``django.setup()``."""
    settings.configure(
        SECRET_KEY="example-only",
        DEBUG=False,
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        USE_TZ=True,
        ROOT_URLCONF="site_urls",
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        INSTALLED_APPS=[
            "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
            "allauth", "allauth.account", "allauth.socialaccount", "allauth.socialaccount.providers.apple",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "allauth.account.middleware.AccountMiddleware",
        ],
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True,
                    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]}}],
        AUTHENTICATION_BACKENDS=["allauth.account.auth_backends.AuthenticationBackend"],
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        LOGIN_REDIRECT_URL="/me",
        SOCIALACCOUNT_QUERY_EMAIL=True,  # ask Apple for the email (allauth asks only for the name otherwise)
        SOCIALACCOUNT_LOGIN_ON_GET=True,  # GET /accounts/apple/login/ goes straight to Apple (no confirmation page)
        SOCIALACCOUNT_PROVIDERS={"apple": {"APPS": [
            {"client_id": client_id, "secret": key_id, "key": team_id, "settings": {"certificate_key": private_key_pem}},
        ]}},
        APPLE_BUNDLE_ID=bundle_id,
        LOGGING={"version": 1, "disable_existing_loggers": False},
    )
    django.setup()


def point_allauth_at(base_url: str) -> None:
    """Apple's three URLs in allauth's adapter (allauth/socialaccount/providers/apple/views.py)."""
    from allauth.socialaccount.providers.apple.views import AppleOAuth2Adapter

    AppleOAuth2Adapter.access_token_url = base_url + "/auth/token"
    AppleOAuth2Adapter.authorize_url = base_url + "/auth/authorize"
    AppleOAuth2Adapter.public_key_url = base_url + "/auth/keys"


def apple_keys_url() -> Any:
    from allauth.socialaccount.providers.apple.views import AppleOAuth2Adapter

    return AppleOAuth2Adapter.public_key_url
