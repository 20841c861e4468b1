"""The example's routes: allauth's, the signed-in probe, and Apple's server-to-server notifications."""

from __future__ import annotations

import json

import jwt
from allauth.socialaccount.models import SocialAccount
from django.conf import settings
from django.contrib.sessions.models import Session
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from site_config import APPLE, apple_keys_url


def me(request: HttpRequest) -> HttpResponse:
    """200 with the signed-in user, 401 otherwise."""
    user = request.user
    if not user.is_authenticated:
        return HttpResponse("not signed in", status=401)
    return JsonResponse({"email": user.email, "first_name": user.first_name, "last_name": user.last_name})


@csrf_exempt
@require_POST
def apple_notifications(request: HttpRequest) -> HttpResponse:
    """Apple's notifications: consent-revoked and account-delete unlink the Apple ID and end its sessions."""
    try:
        payload = json.loads(request.body)["payload"]
        key = jwt.PyJWKClient(apple_keys_url()).get_signing_key_from_jwt(payload)
        claims = jwt.decode(payload, key.key, algorithms=["RS256"], audience=settings.APPLE_BUNDLE_ID, issuer=APPLE)
        events = claims["events"]
        events = json.loads(events) if isinstance(events, str) else events
    except (ValueError, KeyError, TypeError, jwt.PyJWTError):
        return HttpResponse("refused", status=400)
    if events.get("type") in ("consent-revoked", "account-delete"):
        for account in SocialAccount.objects.filter(provider="apple", uid=events.get("sub", "")):
            user_id = str(account.user_id)
            for session in Session.objects.all():
                if session.get_decoded().get("_auth_user_id") == user_id:
                    session.delete()
            account.delete()
    return HttpResponse(status=200)


urlpatterns = [
    path("accounts/", include("allauth.urls")),
    path("me", me),
    path("apple/notifications", apple_notifications),
]
