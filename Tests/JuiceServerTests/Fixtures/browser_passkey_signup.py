#!/usr/bin/env python3
"""Drives headless Chromium and its virtual authenticator through a passkey-first account, against a running server.

usage: browser_passkey_signup.py JUICE_URL USERNAME PASSWORD SCREENSHOT_DIR

JUICE_URL's host must be a domain (localhost): WebAuthn takes no IP address for an RP ID.

1. /signup shows "Create an Account with a Passkey" (a username field, no password field); with a username
   it creates the account with navigator.credentials.create() and lands on /account, signed in with a
   passkey, the account listing one passkey and no password.
2. Signs out (the authenticator emptied while the login page's conditional request runs), puts the passkey
   back, and signs in with "Sign in with a passkey".
3. Adds a password on /account/password: the username is the one chosen, shown read-only.
4. Removes the passkey on /account (allowed now that there is a password).
5. Signs out and signs in with the username and the new password.

Screenshots of every step go to SCREENSHOT_DIR. Exit status 0 on success; any failure prints why and exits 1.
"""
import os
import signal
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_browser import set_deadline, start_chromium


def main():
    base, username, password, shots = sys.argv[1:5]
    set_deadline(120)
    os.makedirs(shots, exist_ok=True)
    driver = start_chromium("1000,1400")
    wait = WebDriverWait(driver, 20)
    step = 0

    def shot(name):
        nonlocal step
        step += 1
        driver.save_screenshot(os.path.join(shots, f"{step:02d}-{name}.png"))

    def on_account():
        wait.until(EC.url_contains("/account"))
        return wait.until(EC.presence_of_element_located((By.ID, "passkeys")))

    def current_session_method():
        row = driver.find_element(By.XPATH, "//ul[@class='sessions']/li[.//span[@class='badge' and text()='This session']]")
        return row.text

    def empty_authenticator():
        held = [credential.to_dict() for credential in driver.get_credentials()]
        driver.remove_all_credentials()
        return held

    def sign_out():
        """Signs out with the authenticator empty and waits until the login page's conditional request ended."""
        held = empty_authenticator()
        driver.find_element(By.ID, "sign-out").click()
        wait.until(EC.presence_of_element_located((By.ID, "passkey-sign-in")))
        wait.until(lambda _: driver.find_element(By.ID, "username").get_attribute("data-passkey-autofill") == "ended")
        return held

    try:
        options = VirtualAuthenticatorOptions()
        options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
        options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
        options.has_resident_key = True
        options.has_user_verification = True
        options.is_user_verified = True
        options.is_user_consenting = True
        driver.add_virtual_authenticator(options)

        # 1. Sign up with a passkey alone.
        driver.get(base + "/signup")
        form = wait.until(EC.visibility_of_element_located((By.ID, "passkey-signup-form")))
        assert not form.find_elements(By.CSS_SELECTOR, "input[type=password]"), "the passkey sign-up asks for a password"
        shot("signup")
        driver.find_element(By.ID, "passkey-username").send_keys(username)
        driver.find_element(By.ID, "create-with-passkey").click()
        on_account()
        assert current_session_method().startswith("Passkey"), f"this session is listed as {current_session_method()!r}"
        listed = driver.find_element(By.ID, "username").text
        assert listed == username, f"the account page names {listed!r}"
        assert len(driver.find_elements(By.CSS_SELECTOR, "#passkeys li")) == 1, "the new account lists no passkey"
        held = driver.get_credentials()
        assert len(held) == 1 and held[0].rp_id == "localhost", f"the authenticator holds {held!r}"
        shot("signed-up-with-passkey")
        print("signed up with a passkey alone")

        # 2. Sign out, then back in with the passkey.
        passkey = sign_out()
        for credential in passkey:
            driver.add_credential(Credential.from_dict(credential))
        driver.find_element(By.ID, "passkey-sign-in").click()
        on_account()
        assert current_session_method().startswith("Passkey")
        shot("signed-in-with-passkey")
        print("signed back in with the passkey")

        # 3. Add a password: the username is kept.
        driver.get(base + "/account/password")
        field = wait.until(EC.presence_of_element_located((By.ID, "username")))
        assert field.get_attribute("value") == username and field.get_attribute("readonly") is not None, "the username is not kept"
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "form[action='/account/password'] button.primary").click()
        wait.until(EC.url_contains("notice=password_changed"))
        on_account()
        shot("password-added")
        print("password added")

        # 4. Remove the passkey.
        driver.find_element(By.CSS_SELECTOR, "#passkeys li form[action='/account/passkeys/remove'] button").click()
        wait.until(EC.url_contains("notice=passkey_removed"))
        on_account()
        assert not driver.find_elements(By.CSS_SELECTOR, "#passkeys li"), "the removed passkey is still listed"
        shot("passkey-removed")
        print("passkey removed")

        # 5. The password signs in.
        sign_out()
        driver.find_element(By.ID, "username").send_keys(username)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "form[action='/signin'] button.primary").click()
        on_account()
        assert current_session_method().startswith("Password")
        shot("signed-in-with-password")
        print("passkey sign-up: ok")
        return 0
    except Exception as error:  # report and keep a screenshot of where it stopped
        shot("failure")
        print(f"passkey sign-up failed at {driver.current_url}: {error!r}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
