"""What the browser tests' selenium scripts share: a deadline that still quits the browser, and
headless Chromium started the same way everywhere.

The Swift tests run the scripts with this directory on PYTHONPATH (`BrowserTools.runPython`).
"""
import shutil
import signal

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def give_up(signum, _frame):
    """SIGTERM (the test's deadline) or SIGALRM (our own): stop, letting `finally` quit the browser."""
    raise TimeoutError(f"stopped by signal {signum}")


def set_deadline(seconds):
    """Stops the script after `seconds`, or earlier when the test's own deadline sends SIGTERM."""
    signal.signal(signal.SIGTERM, give_up)
    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(seconds)


def start_chromium(window_size, javascript=True):
    """Headless Chromium (or Chrome) in English with its chromedriver; a page gets 30 s to load."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={window_size}", "--lang=en-US"]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if binary:
        options.binary_location = binary
    driver_path = shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path) if driver_path else Service(), options=options)
    driver.set_page_load_timeout(30)
    return driver
