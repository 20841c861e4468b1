"""social-auth-app-django with social-core's AppleIdAuth, configured as its documentation says.

SESSION_SAMESITE_NONE=1 makes Django's session cookie SameSite=None; Secure, which Apple's
cross-site form_post needs to reach the session holding the state; without it the backend keeps
Django's default (Lax) and can sign nobody in.
"""
import os

from common import *  # noqa: F401,F403
from common import BASE_APPS, BASE_MIDDLEWARE, CLIENT_ID, KEY_ID, TEAM_ID, TEAM_KEY_PEM

ROOT_URLCONF = "social_urls"
INSTALLED_APPS = BASE_APPS + ["social_django"]
MIDDLEWARE = BASE_MIDDLEWARE
AUTHENTICATION_BACKENDS = ["social_core.backends.apple.AppleIdAuth"]
SOCIAL_AUTH_APPLE_ID_CLIENT = CLIENT_ID
SOCIAL_AUTH_APPLE_ID_TEAM = TEAM_ID
SOCIAL_AUTH_APPLE_ID_KEY = KEY_ID
SOCIAL_AUTH_APPLE_ID_SECRET = TEAM_KEY_PEM
SOCIAL_AUTH_APPLE_ID_SCOPE = ["email", "name"]
SOCIAL_AUTH_LOGIN_REDIRECT_URL = "/me"
if os.environ.get("SESSION_SAMESITE_NONE") == "1":
    SESSION_COOKIE_SAMESITE = "None"
    SESSION_COOKIE_SECURE = True
