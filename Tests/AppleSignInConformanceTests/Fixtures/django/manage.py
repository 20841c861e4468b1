"""Runs one of the real Sign in with Apple backends the conformance tests judge.

DJANGO_SETTINGS_MODULE picks it: allauth_site (django-allauth's Apple provider), social_site
(social-auth-app-django's AppleIdAuth) or restauth_site (dj-rest-auth's SocialLoginView with allauth's
Apple adapter, a mobile backend's API). Everything Apple-specific comes from the environment the Swift
test sets: APPLE_URL (the kit's or the emulator's base URL), TEAM_ID, KEY_ID, TEAM_KEY_FILE, CLIENT_ID,
DATABASE_FILE.
"""
import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
