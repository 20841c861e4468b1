"""What both sites share: a SQLite file, sessions, the probe view. Nothing Apple-specific."""
import os

SECRET_KEY = "conformance-fixture-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
USE_TZ = True
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["DATABASE_FILE"]}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
BASE_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions"]
BASE_MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
LOGIN_REDIRECT_URL = "/me"
LOGGING = {"version": 1, "disable_existing_loggers": False}

APPLE_URL = os.environ["APPLE_URL"]
TEAM_ID = os.environ["TEAM_ID"]
KEY_ID = os.environ["KEY_ID"]
CLIENT_ID = os.environ["CLIENT_ID"]
with open(os.environ["TEAM_KEY_FILE"], encoding="utf-8") as key_file:
    TEAM_KEY_PEM = key_file.read()

# django-allauth's Apple provider, configured as its documentation says (allauth_site and restauth_site).
ALLAUTH_APPLE_PROVIDERS = {
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
