from django.conf import settings
from django.urls import include, path

from probe import login_page, me
from social_core.backends.apple import AppleIdAuth

# The only change: Apple's URLs point at the kit (or the emulator) (class attributes of
# social_core/backends/apple.py:AppleIdAuth). The issuer stays https://appleid.apple.com.
AppleIdAuth.AUTHORIZATION_URL = settings.APPLE_URL + "/auth/authorize"
AppleIdAuth.ACCESS_TOKEN_URL = settings.APPLE_URL + "/auth/token"
AppleIdAuth.JWK_URL = settings.APPLE_URL + "/auth/keys"

urlpatterns = [path("", include("social_django.urls", namespace="social")), path("me", me), path("login", login_page)]
