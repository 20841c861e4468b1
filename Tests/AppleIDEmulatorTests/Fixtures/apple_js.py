#!/usr/bin/env python3
"""Drives headless Chromium through Sign in with Apple JS served by the emulator.

usage: apple_js.py SITE OTHER_ORIGIN EMULATOR SERVICES_ID BUNDLE_ID CALLBACK ALICE ALICE_PASSWORD BOB BOB_PASSWORD OUT_DIR

SITE serves a page written from Apple's documentation (see RelyingPartyPages.swift); OTHER_ORIGIN
serves /forge, a page that posts forged answers to its opener or parent. Walks: the rendered button; popup sign-in for a new
and a returning Apple ID; Cancel; closing the popup; forged messages from another origin and from
the page's own origin, ignored; refused requests (unknown client, bundle id, unregistered redirect
URI) rejecting with Apple's code; redirect mode (form_post); the zh_CN button and renderButton().
Writes the three successful sign-ins to OUT_DIR/results.json (the Swift test verifies their tokens),
screenshots to OUT_DIR. Exit status 0 on success; a failure prints why and exits 1.
"""
import json
import os
import signal
import sys
import time
from urllib.parse import parse_qs, quote, urlparse

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_browser import set_deadline, start_chromium


def main():
    (site, other, emulator, services_id, bundle_id, callback,
     alice, alice_password, bob, bob_password, out) = sys.argv[1:12]
    set_deadline(180)
    os.makedirs(out, exist_ok=True)
    driver = start_chromium("720,640")
    wait = WebDriverWait(driver, 20)
    main_window = driver.current_window_handle
    signed_in = []

    def shot(name):
        driver.save_screenshot(os.path.join(out, f"{name}.png"))

    def page(client_id=services_id, redirect_uri=callback, locale="en_US", popup="true"):
        driver.switch_to.window(main_window)
        driver.get(f"{site}/?client_id={quote(client_id)}&redirect_uri={quote(redirect_uri)}&locale={locale}&popup={popup}")
        return wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#appleid-signin [role=button]")))

    def open_popup(trigger):
        before = set(driver.window_handles)
        trigger()
        wait.until(lambda d: len(set(d.window_handles) - before) == 1)
        popup = (set(driver.window_handles) - before).pop()
        driver.switch_to.window(popup)
        return popup

    def sign_in_at_apple(account, password, shot_name=None):
        """On the popup's sign-in page: signs in, then on the consent page presses Continue."""
        wait.until(EC.presence_of_element_located((By.ID, "account_name"))).send_keys(account)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()
        button = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "button[value=continue]")))
        if shot_name:
            shot(shot_name)
        button.click()
        # The popup posts and closes itself.
        driver.switch_to.window(main_window)

    def outcome():
        return wait.until(lambda d: d.execute_script("return window.outcome"))

    def events():
        return driver.execute_script("return window.events")

    def no_uncaught():
        bad = [event for event in events() if "uncaught" in event or "unhandled" in event]
        assert not bad, f"the script left {bad!r}"

    def click_js():
        driver.find_element(By.ID, "sign-in-js").click()

    try:
        # The button, rendered from the data- attributes.
        button = page()
        assert button.get_attribute("aria-label") == "Sign in with Apple", button.get_attribute("aria-label")
        assert button.size["height"] == 40 and button.size["width"] == 240, f"the button is {button.size!r}"
        shot("01-page")

        # A new Apple ID, through the rendered button: the events carry the answer, with the user.
        open_popup(button.click)
        sign_in_at_apple(alice, alice_password, "02-popup-consent")
        wait.until(lambda d: any("success" in event for event in d.execute_script("return window.events")))
        data = next(event["success"] for event in events() if "success" in event)
        assert data["authorization"]["state"] == "rp-state-1", data
        assert data["user"]["name"] == {"firstName": "Alice", "lastName": "Appleseed"}, data
        assert data["user"]["email"], data
        signed_in.append(data)
        no_uncaught()

        # The same Apple ID again, through signIn()'s promise: no user this time.
        page()
        open_popup(click_js)
        sign_in_at_apple(alice, alice_password)
        result = outcome()
        assert "data" in result, result
        assert "user" not in result["data"], result
        signed_in.append(result["data"])
        assert any("success" in event for event in events()), events()
        no_uncaught()

        # Cancel at Apple: rejects with user_cancelled_authorize, and the failure event fires.
        page()
        open_popup(click_js)
        wait.until(EC.presence_of_element_located((By.ID, "account_name")))
        driver.find_element(By.CSS_SELECTOR, "button[value=cancel]").click()
        driver.switch_to.window(main_window)
        result = outcome()
        assert result == {"error": {"error": "user_cancelled_authorize"}}, result
        assert {"failure": {"error": "user_cancelled_authorize"}} in events(), events()
        no_uncaught()

        # The person closes the popup: rejects with popup_closed_by_user.
        page()
        open_popup(click_js)
        wait.until(EC.presence_of_element_located((By.ID, "account_name")))
        driver.close()
        driver.switch_to.window(main_window)
        result = outcome()
        assert result == {"error": {"error": "popup_closed_by_user"}}, result
        no_uncaught()

        # Forged answers, with the right frame_id, from another origin and from the page's own origin,
        # are ignored; the real answer then resolves the promise.
        page()
        popup = open_popup(click_js)
        frame_id = parse_qs(urlparse(driver.current_url).query)["frame_id"][0]
        driver.switch_to.window(main_window)
        driver.execute_script(
            "var f = document.createElement('iframe'); f.id = 'forge'; f.src = arguments[0]; document.body.appendChild(f);",
            f"{other}/forge?frame_id={quote(frame_id)}")
        driver.execute_script(
            "window.postMessage({type: 'appleid-signin', frame_id: arguments[0],"
            " data: {authorization: {code: 'forged-code', id_token: 'x.y.z', state: 'forged'}}}, '*');", frame_id)
        driver.switch_to.frame("forge")
        wait.until(lambda d: d.execute_script("return document.title") == "forged")  # d.title is the top window's
        driver.switch_to.default_content()
        # The popup itself (the window the script opened), navigated to another origin, posts to its opener.
        driver.switch_to.window(popup)
        authorize_url = driver.current_url
        driver.get(f"{other}/forge?frame_id={quote(frame_id)}")
        wait.until(lambda d: d.title == "forged")
        driver.switch_to.window(main_window)
        time.sleep(1.0)
        assert driver.execute_script("return window.outcome") is None, "a forged message settled the promise"
        driver.switch_to.window(popup)
        driver.get(authorize_url)
        sign_in_at_apple(bob, bob_password)
        result = outcome()
        assert result["data"]["authorization"]["code"] != "forged-code", result
        assert result["data"]["user"]["name"]["firstName"] == "Bob", result
        signed_in.append(result["data"])
        no_uncaught()

        # Refused requests: Apple's error in the popup, the promise rejects with its code.
        for client_id, redirect_uri, code, name in [
            ("com.unknown.web", callback, "invalid_client", None),
            (bundle_id, callback, "invalid_client", None),
            (services_id, f"{site}/not-registered", "invalid_request", "03-popup-refused"),
        ]:
            page(client_id=client_id, redirect_uri=redirect_uri)
            popup = open_popup(click_js)
            wait.until(EC.presence_of_element_located((By.TAG_NAME, "code")))
            assert code in driver.page_source, f"the popup does not show {code}"
            if name:
                shot(name)
            driver.switch_to.window(main_window)
            result = outcome()
            assert result == {"error": {"error": code}}, (client_id, redirect_uri, result)
            driver.switch_to.window(popup)
            driver.close()
            driver.switch_to.window(main_window)
            no_uncaught()

        # Redirect mode: the page goes to Apple, which posts the answer to the redirect URI.
        page(popup="false")
        click_js()
        sign_in_at_apple(alice, alice_password)
        received = wait.until(EC.presence_of_element_located((By.ID, "callback"))).text.split()
        assert {"code", "id_token", "state"} <= set(received), received

        # The button in Chinese, and renderButton() after the page changes its attributes.
        button = page(locale="zh_CN")
        assert button.get_attribute("aria-label") == "通过 Apple 登录", button.get_attribute("aria-label")
        driver.execute_script(
            "var w = document.getElementById('appleid-signin'); w.dataset.type = 'continue'; w.dataset.color = 'white';"
            " w.dataset.height = '500'; AppleID.auth.renderButton();")
        button = driver.find_element(By.CSS_SELECTOR, "#appleid-signin [role=button]")
        assert button.get_attribute("aria-label") == "通过 Apple 继续", button.get_attribute("aria-label")
        assert button.size["height"] == 64, f"an out-of-range height is clamped, not {button.size!r}"
        shot("04-button-zh")
        no_uncaught()

        with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as file:
            json.dump(signed_in, file)
        print("apple js: ok")
        return 0
    except Exception as error:  # report and keep a screenshot of where it stopped
        try:
            shot("failure")
            print(f"apple js failed at {driver.current_url}: {error!r}", file=sys.stderr)
            driver.switch_to.window(main_window)
            print(f"events: {events()!r}", file=sys.stderr)
        except Exception as inner:
            print(f"apple js failed: {error!r} ({inner!r})", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
