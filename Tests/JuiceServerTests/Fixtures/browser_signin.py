#!/usr/bin/env python3
"""Drives headless Chromium through Juice's web sign-in with Apple, against running servers.

usage: browser_signin.py JUICE_URL APPLE_ID PASSWORD SCREENSHOT_DIR

Opens the login page, follows the "Sign in with Apple" link (the redirect flow), signs in and consents at the (emulated) Apple
page, lands on /account, checks the account shows the Apple ID's name and email, signs out, and
checks it is back on the login page, then types passwords on the sign-up page and checks the strength
hint. Screenshots of every step go to SCREENSHOT_DIR.
Exit status 0 on success; any failure prints why and exits 1.
"""
import os
import signal
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_browser import set_deadline, start_chromium


def main():
    base, apple_id, password, shots = sys.argv[1:5]
    set_deadline(150)  # the whole walk, browser start included, has 150 s
    os.makedirs(shots, exist_ok=True)
    driver = start_chromium("1000,1100")
    wait = WebDriverWait(driver, 20)
    step = 0

    def shot(name):
        nonlocal step
        step += 1
        driver.save_screenshot(os.path.join(shots, f"{step:02d}-{name}.png"))

    try:
        driver.get(base + "/")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "a.apple-id-button")))
        assert "Sign in to Juice" in driver.page_source, "the login page is not shown"
        shot("login")

        # The link itself, as a browser without JavaScript follows it (with JavaScript, a click opens
        # the popup sign-in: browser_popup_signin.py).
        driver.get(driver.find_element(By.CSS_SELECTOR, "a.apple-id-button").get_attribute("href"))
        wait.until(EC.presence_of_element_located((By.ID, "account_name")))
        shot("apple-sign-in")
        driver.find_element(By.ID, "account_name").send_keys(apple_id)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()

        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "button[value=continue]")))
        shot("apple-consent")
        driver.find_element(By.CSS_SELECTOR, "button[value=continue]").click()

        wait.until(EC.url_contains("/account"))
        wait.until(EC.presence_of_element_located((By.ID, "user-identifier")))
        shot("account")
        given = driver.find_element(By.ID, "given-name").text
        family = driver.find_element(By.ID, "family-name").text
        email = driver.find_element(By.ID, "email").text
        user = driver.find_element(By.ID, "user-identifier").text
        assert given == "Johnny" and family == "Appleseed", f"the account shows the name {given!r} {family!r}"
        assert apple_id in email, f"the account shows the email {email!r}"
        assert user.count(".") == 2, f"the user identifier {user!r} is not Apple-shaped"
        cookies = {cookie["name"]: cookie for cookie in driver.get_cookies()}
        session = cookies.get("juice_session") or cookies.get("__Host-juice_session")
        assert session and session["httpOnly"] and session.get("sameSite") == "Lax", f"the session cookie is {session!r}"

        driver.find_element(By.ID, "sign-out").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.notice")))
        assert "You have signed out." in driver.page_source, "no signed-out notice"
        shot("signed-out")
        driver.get(base + "/account")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "a.apple-id-button")))
        assert "/account" not in driver.current_url, "still signed in after signing out"

        # The sign-up page's strength hint runs (its inline script is allowed by hash) as one types.
        driver.get(base + "/signup")
        hint = wait.until(EC.presence_of_element_located((By.ID, "password-strength")))
        driver.find_element(By.ID, "username").send_keys("grove")
        field = driver.find_element(By.ID, "password")
        for typed, verdict in [("abc", "short"), ("aaaaaaaaa", "repetitive"), ("23456789", "sequential"),
                               ("my-grove-secret", "username"), ("squeeze-me-123", "ok")]:
            field.clear()
            field.send_keys(typed)
            wait.until(lambda _: hint.get_attribute("data-verdict") == verdict)
            assert hint.text == hint.get_attribute("data-" + verdict), f"the hint for {verdict} reads {hint.text!r}"
        shot("signup-hint")
        print("browser sign-in: ok", user)
        return 0
    except Exception as error:  # report and keep a screenshot of where it stopped
        shot("failure")
        print(f"browser sign-in failed at {driver.current_url}: {error!r}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
