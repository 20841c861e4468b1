"""Runs one of the two real Sign in with Apple backends the conformance tests judge.

DJANGO_SETTINGS_MODULE picks it: allauth_site (django-allauth's Apple provider) or social_site
(social-auth-app-django's AppleIdAuth). Everything Apple-specific comes from the environment the
Swift test sets: KIT_URL, TEAM_ID, KEY_ID, TEAM_KEY_FILE, CLIENT_ID, DATABASE_FILE.
"""
import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
