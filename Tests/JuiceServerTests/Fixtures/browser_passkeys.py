#!/usr/bin/env python3
"""Drives headless Chromium and its virtual authenticator through Juice's passkeys, against a running server.

usage: browser_passkeys.py JUICE_URL USERNAME PASSWORD SCREENSHOT_DIR [last-method]

JUICE_URL's host must be a domain (localhost): WebAuthn takes no IP address for an RP ID.

0. Without WebAuthn (`window.PublicKeyCredential` deleted before any script runs), the login and account
   pages show no passkey button, offer or error.
1. Signs up with a password: the account page offers a passkey.
2. Adds a passkey from the offer, named in the account page's field (navigator.credentials.create by the
   virtual authenticator):
   it is listed with its name, the offer is gone, the accepted ids were signalled to the browser.
3. Renames it with the page's form.
4. Signs out; the login page's username field says `autocomplete="username webauthn"` and its conditional
   request starts (it ends quietly while the authenticator holds nothing); "Sign in with a passkey" signs
   in and lands on /account, whose session list shows this session as "Passkey".
5. Signs out; with the passkey in the authenticator, loading the login page completes the conditional
   request by itself (the virtual authenticator answers it headlessly) and lands on /account.
6. A clone: the credential exported (get_credentials) and added back with signature counter 0 is refused
   with the counter message.
7. Signs in with the password, removes the passkey on /account (signalUnknownCredential is called), signs
   out: the still-present credential is refused as not registered.
8. A foreign credential (a key the server never saw) is refused the same way.
9. Signs in with the password and adds another passkey, and keeps it in SCREENSHOT_DIR/credential.json.

With `last-method` (run after the Swift test deleted the account's password), a new browser whose
authenticator holds only that passkey signs in by autofill and tries to remove it: the account page
refuses, saying it is the only way to sign in, and still lists it.

Between steps the authenticator is emptied before a login page loads where its conditional request must
not sign in by itself. Screenshots of every step go to SCREENSHOT_DIR. Exit status 0 on success; any
failure prints why and exits 1.
"""
import json
import os
import signal
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_browser import set_deadline, start_chromium


def add_authenticator(driver):
    """A platform authenticator that keeps discoverable credentials and verifies its user at once."""
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    options.is_user_consenting = True
    driver.add_virtual_authenticator(options)


def main():
    base, username, password, shots = sys.argv[1:5]
    last_method = sys.argv[5:] == ["last-method"]
    set_deadline(60 if last_method else 170)  # the whole walk, browser start included
    os.makedirs(shots, exist_ok=True)
    driver = start_chromium("1000,1400")
    wait = WebDriverWait(driver, 20)
    step = 20 if last_method else 0
    saved = os.path.join(shots, "credential.json")

    def shot(name):
        nonlocal step
        step += 1
        driver.save_screenshot(os.path.join(shots, f"{step:02d}-{name}.png"))

    def empty_authenticator():
        """Takes every credential out of the authenticator; returns them as dicts."""
        held = [credential.to_dict() for credential in driver.get_credentials()]
        driver.remove_all_credentials()
        return held

    def put_back(held):
        for credential in held:
            driver.add_credential(Credential.from_dict(credential))

    def on_account():
        wait.until(EC.url_contains("/account"))
        return wait.until(EC.presence_of_element_located((By.ID, "passkeys")))

    def current_session_method():
        row = driver.find_element(By.XPATH, "//ul[@class='sessions']/li[.//span[@class='badge' and text()='This session']]")
        return row.text

    def sign_out():
        """Signs out (the authenticator must be empty) and waits until the login page's conditional
        request has started and ended with nothing to offer, so no request is pending at the next step."""
        driver.find_element(By.ID, "sign-out").click()
        wait.until(EC.presence_of_element_located((By.ID, "passkey-sign-in")))
        autofill_ended()

    def autofill_ended():
        """Waits until the login page's conditional request has ended without signing in."""
        wait.until(lambda _: driver.find_element(By.ID, "username").get_attribute("data-passkey-autofill") == "ended")

    def password_sign_in():
        """Signs in with the password from the login page, the authenticator emptied first."""
        empty_authenticator()
        driver.get(base + "/")
        autofill_ended()
        driver.find_element(By.ID, "username").send_keys(username)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "form[action='/signin'] button.primary").click()
        on_account()

    def add_passkey(name, button="add-passkey"):
        """Adds a passkey named `name` with the account page's form (or the offer's button)."""
        driver.find_element(By.ID, "passkey-name").send_keys(name)
        driver.find_element(By.ID, button).click()
        wait.until(EC.url_contains("notice=passkey_added"))

    def passkey_refusal(expected):
        """Clicks "Sign in with a passkey" and waits for the refusal."""
        driver.find_element(By.ID, "passkey-sign-in").click()
        error = wait.until(EC.visibility_of_element_located((By.ID, "passkey-error")))
        assert expected in error.text, f"the refusal reads {error.text!r}"
        assert "/account" not in driver.current_url, "signed in anyway"
        return error.text

    try:
        add_authenticator(driver)
        if last_method:
            with open(saved) as file:
                put_back([json.load(file)])
            driver.get(base + "/")
            on_account()
            names = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#passkeys li .passkey-name")]
            assert names == ["Only key"], f"the passkeys listed are {names!r}"
            driver.find_element(By.CSS_SELECTOR, "#passkeys li form[action='/account/passkeys/remove'] button").click()
            error = wait.until(EC.visibility_of_element_located((By.ID, "form-error")))
            assert "only way to sign in" in error.text, f"the refusal reads {error.text!r}"
            assert driver.find_elements(By.CSS_SELECTOR, "#passkeys li"), "the last passkey is no longer listed"
            shot("last-method-refused")
            print("last sign-in method kept:", error.text)
            return 0

        # 0. A browser without WebAuthn: no passkey button, no offer, no error; the pages work on.
        hidden = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PublicKeyCredential;"})
        driver.get(base + "/")
        wait.until(EC.presence_of_element_located((By.ID, "passkey-sign-in")))
        assert not driver.find_element(By.ID, "passkey-sign-in").is_displayed(), "a passkey button without WebAuthn"
        assert driver.execute_script("return typeof window.PublicKeyCredential") == "undefined"

        # 1. A password account: the offer.
        driver.get(base + "/signup")
        wait.until(EC.presence_of_element_located((By.ID, "username"))).send_keys(username)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()
        on_account()
        for element in ["passkey-offer", "add-passkey-form", "passkey-error"]:
            assert not driver.find_element(By.ID, element).is_displayed(), f"#{element} is shown without WebAuthn"
        assert driver.find_elements(By.ID, "no-passkeys"), "the passkey section is missing without WebAuthn"
        shot("without-webauthn")
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hidden["identifier"]})
        driver.refresh()
        on_account()
        wait.until(EC.visibility_of_element_located((By.ID, "passkey-offer")))
        assert driver.find_elements(By.ID, "no-passkeys"), "a new account lists passkeys"
        shot("offer")

        # 2. Add a passkey with a name.
        add_passkey("Work laptop", button="offer-add-passkey")
        section = on_account()
        names = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#passkeys li .passkey-name")]
        assert names == ["Work laptop"], f"the passkeys listed are {names!r}"
        assert not driver.find_elements(By.ID, "passkey-offer"), "the offer is still shown with a passkey"
        wait.until(lambda _: section.get_attribute("data-signal-all"))
        signal_all = section.get_attribute("data-signal-all")
        assert signal_all == "sent", f"signalAllAcceptedCredentials: {signal_all}"
        held = driver.get_credentials()
        assert len(held) == 1 and held[0].rp_id == "localhost", f"the authenticator holds {held!r}"
        shot("passkey-added")

        # 3. Rename it.
        field = driver.find_element(By.CSS_SELECTOR, "#passkeys li form.inline input[name=name]")
        field.clear()
        field.send_keys("Kitchen tablet")
        driver.find_element(By.CSS_SELECTOR, "#passkeys li form.inline button").click()
        wait.until(EC.url_contains("notice=passkey_renamed"))
        on_account()
        names = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#passkeys li .passkey-name")]
        assert names == ["Kitchen tablet"], f"after renaming, the passkeys listed are {names!r}"
        shot("renamed")

        # 4. Sign out; the conditional request starts; the button signs in.
        passkey = empty_authenticator()
        sign_out()
        user_field = driver.find_element(By.ID, "username")
        assert user_field.get_attribute("autocomplete") == "username webauthn", user_field.get_attribute("autocomplete")
        assert not driver.find_element(By.ID, "passkey-error").is_displayed(), "an empty conditional request showed an error"
        shot("login-conditional-started")
        put_back(passkey)
        driver.find_element(By.ID, "passkey-sign-in").click()
        on_account()
        method = current_session_method()
        assert method.startswith("Passkey"), f"this session is listed as {method!r}"
        shot("signed-in-with-button")

        # 5. Sign out; the conditional request completes by itself.
        passkey = empty_authenticator()
        sign_out()
        put_back(passkey)
        driver.get(base + "/")
        on_account()
        method = current_session_method()
        assert method.startswith("Passkey"), f"after autofill, this session is listed as {method!r}"
        print("conditional mediation: completed headlessly by the virtual authenticator")
        shot("signed-in-with-autofill")

        # 6. A clone with a lower counter.
        passkey = empty_authenticator()
        sign_out()
        clone = dict(passkey[0], signCount=0)
        put_back([clone])
        refusal = passkey_refusal("signature counter")
        shot("clone-refused")
        print("clone refused:", refusal)

        # 7. Removed on /account, then refused.
        password_sign_in()
        assert current_session_method().startswith("Password")
        driver.find_element(By.CSS_SELECTOR, "#passkeys li form[action='/account/passkeys/remove'] button").click()
        wait.until(EC.url_contains("notice=passkey_removed"))
        section = on_account()
        assert not driver.find_elements(By.CSS_SELECTOR, "#passkeys li"), "the removed passkey is still listed"
        gone = section.get_attribute("data-removed-credential")
        assert gone and gone == passkey[0]["credentialId"].rstrip("="), f"the page names {gone!r} as removed"
        wait.until(lambda _: section.get_attribute("data-signal-unknown"))
        signal_unknown = section.get_attribute("data-signal-unknown")
        assert signal_unknown == "sent", f"signalUnknownCredential: {signal_unknown}"
        shot("removed")
        sign_out()
        put_back(passkey)
        refusal = passkey_refusal("not registered")
        shot("removed-refused")
        print("removed passkey refused:", refusal)

        # 8. A foreign credential.
        empty_authenticator()
        key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        driver.add_credential(Credential.create_resident_credential(os.urandom(16), "localhost", os.urandom(16), key, 0))
        driver.get(base + "/")
        wait.until(EC.presence_of_element_located((By.ID, "passkey-sign-in")))
        # The conditional request of this load is answered by the foreign credential, and refused.
        autofill_ended()
        refusal = wait.until(EC.visibility_of_element_located((By.ID, "passkey-error"))).text
        assert "not registered" in refusal, f"the foreign credential's refusal reads {refusal!r}"
        shot("foreign-refused")
        print("foreign credential refused:", refusal)

        # 9. Another passkey, kept for the last-method run.
        password_sign_in()
        add_passkey("Only key")
        with open(saved, "w") as file:
            json.dump(empty_authenticator()[0], file)
        print("browser passkeys: ok")
        return 0
    except Exception as error:  # report and keep a screenshot of where it stopped
        shot("failure")
        print(f"browser passkeys failed at {driver.current_url}: {error!r}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
