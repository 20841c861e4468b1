from django.conf import settings
from django.urls import include, path

from allauth.socialaccount.providers.apple.client import AppleOAuth2Client
from allauth.socialaccount.providers.apple.views import AppleOAuth2Adapter
from dj_rest_auth.registration.views import SocialLoginView

# The only change: Apple's URLs point at the kit (or the emulator), as in allauth_urls.py. The issuer
# stays https://appleid.apple.com.
AppleOAuth2Adapter.access_token_url = settings.APPLE_URL + "/auth/token"
AppleOAuth2Adapter.authorize_url = settings.APPLE_URL + "/auth/authorize"
AppleOAuth2Adapter.public_key_url = settings.APPLE_URL + "/auth/keys"


class AppleLogin(SocialLoginView):
    """POST /api/auth/apple/ with {"code", "id_token"} (or {"access_token", "id_token"}), as dj-rest-auth's
    documentation shows it. allauth's client redeems the code with the bundle id *and* this callback URL
    as redirect_uri, which Apple accepts for a native code."""

    adapter_class = AppleOAuth2Adapter
    client_class = AppleOAuth2Client
    callback_url = "https://app.example.com/accounts/apple/login/callback/"


urlpatterns = [path("api/auth/apple/", AppleLogin.as_view()), path("api/auth/", include("dj_rest_auth.urls"))]
