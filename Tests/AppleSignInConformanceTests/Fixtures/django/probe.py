"""GET /me: 200 with the signed-in user's email, 401 otherwise (the kit's --probe)."""
from django.http import HttpResponse, JsonResponse


def me(request):
    if not request.user.is_authenticated:
        return HttpResponse("not signed in", status=401)
    return JsonResponse({"username": request.user.get_username(), "email": request.user.email})


def login_page(request):
    """GET /login: the site's "Sign in with Apple" button, a CSRF-protected form posting to social-auth's begin URL."""
    from django.middleware.csrf import get_token
    from django.urls import reverse
    from django.utils.html import escape

    action = reverse("social:begin", args=["apple-id"])
    return HttpResponse(
        f'<!DOCTYPE html><form method="post" action="{escape(action)}">'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(get_token(request))}">'
        '<button type="submit">Sign in with Apple</button></form>'
    )
