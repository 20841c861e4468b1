"""POST /native: an app's Sign in with Apple credential, judged the way django-allauth's headless
`provider/token` endpoint judges it (allauth/headless/socialaccount/inputs.py:ProviderTokenInput.clean
calls provider.verify_token), without the headless app's session plumbing: 200 when allauth accepts
the identity token, 400 when it refuses it."""
import json

from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from allauth.socialaccount.adapter import get_adapter


@csrf_exempt
@require_POST
def native(request):
    try:
        body = json.loads(request.body)
    except ValueError:
        return JsonResponse({"error": "invalid_json"}, status=400)
    if not isinstance(body, dict) or not isinstance(body.get("identityToken"), str):
        return JsonResponse({"error": "token_required"}, status=400)
    provider = get_adapter().get_provider(request, "apple")
    try:
        login = provider.verify_token(request, {"id_token": body["identityToken"], "client_id": provider.app.client_id})
    except ValidationError:
        return JsonResponse({"error": "invalid_token"}, status=400)
    return JsonResponse({"sub": login.account.uid})
