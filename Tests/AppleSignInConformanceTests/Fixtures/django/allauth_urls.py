from django.conf import settings
from django.urls import include, path

from allauth.socialaccount.providers.apple.views import AppleOAuth2Adapter
from allauth_native import native
from probe import me

# The only change: Apple's URLs point at the kit (or the emulator) (the adapter's class attributes, see
# allauth/socialaccount/providers/apple/views.py). The issuer stays https://appleid.apple.com.
AppleOAuth2Adapter.access_token_url = settings.APPLE_URL + "/auth/token"
AppleOAuth2Adapter.authorize_url = settings.APPLE_URL + "/auth/authorize"
AppleOAuth2Adapter.public_key_url = settings.APPLE_URL + "/auth/keys"

urlpatterns = [path("accounts/", include("allauth.urls")), path("me", me), path("native", native)]
