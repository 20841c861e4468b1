#!/usr/bin/env python3
"""Drives headless Chromium through Juice's popup sign-in (Sign in with Apple JS), against running servers.

usage: browser_popup_signin.py JUICE_URL APPLE_ID PASSWORD SCREENSHOT_DIR

With JavaScript: clicks "Sign in with Apple" on the login page, signs in and consents in the popup
the emulator's script opens, lands on /account; signs out; Cancel in the popup shows the cancelled
notice; closing the popup leaves the login page as it was. With JavaScript off: the same link runs the
redirect flow (form_post, its Continue button pressed by hand) and lands on /account.
Exit status 0 on success; any failure prints why and exits 1.
"""
import os
import signal
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_browser import set_deadline, start_chromium


def chrome(javascript=True):
    return start_chromium("720,760", javascript=javascript)


def main():
    base, apple_id, password, shots = sys.argv[1:5]
    set_deadline(130)
    os.makedirs(shots, exist_ok=True)
    drivers = []
    driver = None
    try:
        driver = chrome()
        drivers.append(driver)
        wait = WebDriverWait(driver, 20)
        main_window = driver.current_window_handle

        def shot(name):
            driver.save_screenshot(os.path.join(shots, f"{name}.png"))

        def login_page():
            driver.switch_to.window(main_window)
            driver.get(base + "/")
            link = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".apple a.apple-id-button")))
            wait.until(lambda d: d.execute_script("return !!(window.AppleID && window.AppleID.auth)"))
            return link

        def open_popup(link):
            before = set(driver.window_handles)
            link.click()
            wait.until(lambda d: len(set(d.window_handles) - before) == 1)
            popup = (set(driver.window_handles) - before).pop()
            driver.switch_to.window(popup)
            wait.until(EC.presence_of_element_located((By.ID, "account_name")))
            return popup

        # Sign in through the popup.
        link = login_page()
        shot("popup-01-login")
        open_popup(link)
        assert "response_mode=web_message" in driver.current_url, driver.current_url
        driver.find_element(By.ID, "account_name").send_keys(apple_id)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()
        button = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "button[value=continue]")))
        shot("popup-02-consent")
        button.click()
        driver.switch_to.window(main_window)
        wait.until(EC.url_contains("/account"))
        wait.until(EC.presence_of_element_located((By.ID, "user-identifier")))
        assert len(driver.window_handles) == 1, "the popup is still open"
        given = driver.find_element(By.ID, "given-name").text
        assert given == "Johnny", f"the account shows the name {given!r}"
        shot("popup-03-account")
        driver.find_element(By.ID, "sign-out").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.notice")))

        # Cancel in the popup: the login page says so.
        open_popup(login_page())
        driver.find_element(By.CSS_SELECTOR, "button[value=cancel]").click()
        driver.switch_to.window(main_window)
        wait.until(EC.url_contains("notice=cancelled"))
        assert driver.find_element(By.CSS_SELECTOR, "p.notice").text, "no cancelled notice"

        # Closing the popup: the page stays as it was, no error shown, still signed out.
        open_popup(login_page())
        driver.close()
        driver.switch_to.window(main_window)
        time.sleep(1.5)  # the script notices a closed popup within about 0.6 s
        assert driver.find_element(By.ID, "apple-popup-error").get_attribute("hidden") is not None, "an error is shown"
        assert driver.current_url.rstrip("/") == base.rstrip("/"), driver.current_url
        driver.quit()
        drivers.remove(driver)

        # JavaScript off: the link runs the redirect flow.
        driver = chrome(javascript=False)
        drivers.append(driver)
        wait = WebDriverWait(driver, 20)
        driver.get(base + "/")
        driver.find_element(By.CSS_SELECTOR, ".apple a.apple-id-button").click()
        wait.until(EC.presence_of_element_located((By.ID, "account_name"))).send_keys(apple_id)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()
        wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "button[value=continue]"))).click()
        # Without JavaScript the form_post page waits for its Continue button.
        wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#apple-response button"))).click()
        wait.until(EC.url_contains("/account"))
        wait.until(EC.presence_of_element_located((By.ID, "user-identifier")))
        print("popup sign-in: ok")
        return 0
    except Exception as error:  # report and keep a screenshot of where it stopped
        if driver is not None:
            try:
                driver.save_screenshot(os.path.join(shots, "failure.png"))
                print(f"popup sign-in failed at {driver.current_url}: {error!r}", file=sys.stderr)
            except Exception as inner:
                print(f"popup sign-in failed: {error!r} ({inner!r})", file=sys.stderr)
        else:
            print(f"popup sign-in failed: {error!r}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        for open_driver in drivers:
            open_driver.quit()


if __name__ == "__main__":
    sys.exit(main())
