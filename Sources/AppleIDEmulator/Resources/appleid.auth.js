/*
 * Sign in with Apple JS, as served by Juice's Apple ID emulator at Apple's CDN path
 * (/appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js). Written for this project from Apple's
 * documentation of the API: AppleID.auth.init / signIn / renderButton, the appleid-signin-* meta tags,
 * the #appleid-signin button with its data-* attributes, and the AppleIDSignInOnSuccess /
 * AppleIDSignInOnFailure events. A page written for Apple's script works when only the script's host
 * changes.
 *
 * Popup mode opens {emulator}/auth/authorize?response_mode=web_message&frame_id=… and takes the answer
 * only from the emulator's origin (the origin this script was loaded from), only from the popup it
 * opened, and only with that popup's frame_id. Every signIn() promise settles: with the answer, Apple's
 * error (user_cancelled_authorize, invalid_client, …), or popup_closed_by_user.
 */
(function () {
    "use strict";
    if (window.AppleID && window.AppleID.auth) {
        return;
    }

    var MESSAGE_TYPE = "appleid-signin";
    var script = document.currentScript;
    var scriptURL;
    try {
        scriptURL = new URL(script && script.src ? script.src : "/", document.baseURI);
    } catch (ignored) {
        scriptURL = new URL(document.baseURI);
    }
    var appleOrigin = scriptURL.origin;
    var localeMatch = /\/appleid\/1\/([A-Za-z]{2}_[A-Za-z]{2})\/appleid\.auth\.js$/.exec(scriptURL.pathname);
    var locale = localeMatch ? localeMatch[1] : "en_US";

    var TITLES = {
        en_US: { "sign-in": "Sign in with Apple", "continue": "Continue with Apple", "sign-up": "Sign up with Apple" },
        zh_CN: { "sign-in": "通过 Apple 登录", "continue": "通过 Apple 继续", "sign-up": "通过 Apple 注册" }
    };
    var titles = TITLES[locale] || TITLES.en_US;

    // The button rules of Juice's web app (AppleIDButton): heights 30–64, a titled button at least
    // 140 wide, a logo-only button square, corner radius 0–50 (at most half the height), a clear
    // margin of a tenth of the height.
    var HEIGHT_MIN = 30, HEIGHT_MAX = 64, WIDTH_MIN = 140, WIDTH_MAX = 375, RADIUS_MAX = 50;
    var LOGO_PATH = "M10 7.2C8.7 6.2 6.9 6 5.4 6.6 2.6 7.7 1.3 10.8 1.7 14.2c.4 3.6 2.5 7.3 4.7 8.2 1.2.5 2.2-.2 3.6-.2s2.4.7 3.6.2" +
        "c1.8-.7 3.3-3 4.2-5.2-2.2-1-3.5-3.2-3.3-5.4.1-1.5.9-2.7 2.1-3.5-1.1-1.4-2.7-2-4.2-1.9-.9.1-1.6.4-2.4.8z" +
        "M10.3 5.6c-.1-2 1.5-4 3.7-4.4.2 2.1-1.5 4.2-3.7 4.4z";

    var configured = {};
    var pending = null;

    function meta(name) {
        var element = document.querySelector('meta[name="appleid-signin-' + name + '"]');
        return element ? element.getAttribute("content") : null;
    }

    function text(value) {
        return value === undefined || value === null ? undefined : String(value);
    }

    function flag(value) {
        return value === true || value === "true";
    }

    /// The configuration in force: the meta tags, then init(), then signIn()'s own.
    function configuration(override) {
        var result = {
            clientId: text(meta("client-id")),
            scope: text(meta("scope")),
            redirectURI: text(meta("redirect-uri")),
            state: text(meta("state")),
            nonce: text(meta("nonce")),
            usePopup: flag(meta("use-popup"))
        };
        [configured, override || {}].forEach(function (source) {
            ["clientId", "scope", "redirectURI", "state", "nonce"].forEach(function (key) {
                if (source[key] !== undefined && source[key] !== null) {
                    result[key] = String(source[key]);
                }
            });
            if (source.usePopup !== undefined && source.usePopup !== null) {
                result.usePopup = flag(source.usePopup);
            }
        });
        return result;
    }

    function randomID() {
        var bytes = new Uint8Array(16);
        window.crypto.getRandomValues(bytes);
        return Array.prototype.map.call(bytes, function (byte) { return ("0" + byte.toString(16)).slice(-2); }).join("");
    }

    function authorizeURL(config, responseMode, frameID) {
        var parameters = new URLSearchParams();
        parameters.set("client_id", config.clientId || "");
        parameters.set("redirect_uri", config.redirectURI || "");
        parameters.set("response_type", "code id_token");
        if (config.scope) {
            parameters.set("scope", config.scope);
        }
        if (config.state) {
            parameters.set("state", config.state);
        }
        if (config.nonce) {
            parameters.set("nonce", config.nonce);
        }
        parameters.set("response_mode", responseMode);
        if (frameID) {
            parameters.set("frame_id", frameID);
        }
        return appleOrigin + "/auth/authorize?" + parameters.toString();
    }

    function dispatch(name, detail) {
        try {
            document.dispatchEvent(new CustomEvent(name, { detail: detail }));
        } catch (ignored) {
            // A listener's exception is the listener's; the promise still settles.
        }
    }

    /// The answer as the page gets it: only the documented fields, as strings.
    function signedIn(data) {
        var authorization = data.authorization || {};
        var result = { authorization: { code: text(authorization.code), id_token: text(authorization.id_token), state: text(authorization.state) } };
        if (data.user && typeof data.user === "object") {
            var user = {};
            if (data.user.email !== undefined) {
                user.email = text(data.user.email);
            }
            if (data.user.name && typeof data.user.name === "object") {
                user.name = { firstName: text(data.user.name.firstName), lastName: text(data.user.name.lastName) };
            }
            result.user = user;
        }
        return result;
    }

    function popupFeatures() {
        var width = 700, height = 720;
        var left = Math.max(0, Math.round((window.screenX || 0) + ((window.outerWidth || width) - width) / 2));
        var top = Math.max(0, Math.round((window.screenY || 0) + ((window.outerHeight || height) - height) / 2));
        return "popup=yes,width=" + width + ",height=" + height + ",left=" + left + ",top=" + top + ",resizable=yes,scrollbars=yes";
    }

    function signInWithPopup(config) {
        if (pending && pending.popup && !pending.popup.closed) {
            pending.popup.focus();
            return pending.promise;
        }
        var frameID = randomID();
        var popup = window.open(authorizeURL(config, "web_message", frameID), "AppleAuthentication", popupFeatures());
        if (!popup) {
            var blocked = { error: "popup_blocked_by_browser" };
            dispatch("AppleIDSignInOnFailure", { error: blocked });
            return Promise.reject(blocked);
        }
        var attempt = { popup: popup, promise: null };
        attempt.promise = new Promise(function (resolve, reject) {
            var settled = false;
            var closedSince = 0;
            function finish(success, value) {
                if (settled) {
                    return;
                }
                settled = true;
                window.removeEventListener("message", onMessage);
                window.clearInterval(watch);
                if (pending === attempt) {
                    pending = null;
                }
                if (success) {
                    dispatch("AppleIDSignInOnSuccess", { data: value });
                    resolve(value);
                } else {
                    dispatch("AppleIDSignInOnFailure", { error: value });
                    reject(value);
                }
            }
            function onMessage(event) {
                // Only the emulator's origin, only the popup this call opened, only its frame_id.
                if (event.origin !== appleOrigin || event.source !== popup) {
                    return;
                }
                var message = event.data;
                if (!message || typeof message !== "object" || message.type !== MESSAGE_TYPE || message.frame_id !== frameID) {
                    return;
                }
                if (message.error && typeof message.error === "object") {
                    finish(false, { error: text(message.error.error) || "unknown_error" });
                } else if (message.data && typeof message.data === "object") {
                    finish(true, signedIn(message.data));
                }
            }
            // The popup's last page posts, then closes: a close seen once may still have its message
            // queued, so the rejection waits for a second look.
            var watch = window.setInterval(function () {
                var closed = true;
                try {
                    closed = popup.closed;
                } catch (ignored) {
                    closed = true;
                }
                if (!closed) {
                    closedSince = 0;
                } else if (closedSince === 0) {
                    closedSince = Date.now();
                } else if (Date.now() - closedSince >= 400) {
                    finish(false, { error: "popup_closed_by_user" });
                }
            }, 200);
            window.addEventListener("message", onMessage);
        });
        pending = attempt;
        return attempt.promise;
    }

    function signIn(override) {
        var config = configuration(override);
        if (config.usePopup) {
            if (!config.clientId || !config.redirectURI) {
                var missing = { error: "invalid_request" };
                dispatch("AppleIDSignInOnFailure", { error: missing });
                return Promise.reject(missing);
            }
            return signInWithPopup(config);
        }
        // Redirect mode: Apple posts the answer to the redirect URI (form_post).
        window.location.assign(authorizeURL(config, "form_post", null));
        return undefined;
    }

    function init(config) {
        if (!config || typeof config !== "object") {
            return;
        }
        configured = {};
        ["clientId", "scope", "redirectURI", "state", "nonce", "usePopup"].forEach(function (key) {
            if (config[key] !== undefined && config[key] !== null) {
                configured[key] = config[key];
            }
        });
        renderButton();
    }

    // MARK: - The button

    function number(value, fallback, low, high) {
        var parsed = parseInt(value, 10);
        if (!isFinite(parsed)) {
            parsed = fallback;
        }
        return Math.min(high, Math.max(low, parsed));
    }

    function css(value) {
        return String(Math.round(value * 100) / 100);
    }

    function logo(height) {
        var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        svg.setAttribute("viewBox", "0 0 20 24");
        svg.setAttribute("width", css(height * 20 / 24));
        svg.setAttribute("height", css(height));
        svg.setAttribute("aria-hidden", "true");
        svg.setAttribute("focusable", "false");
        svg.style.flex = "none";
        var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
        path.setAttribute("fill", "currentColor");
        path.setAttribute("d", LOGO_PATH);
        svg.appendChild(path);
        return svg;
    }

    function renderButton() {
        var wrapper = document.getElementById("appleid-signin");
        if (!wrapper) {
            return;
        }
        var data = wrapper.dataset || {};
        var type = String(data.type || "sign-in").toLowerCase().replace(/\s+/g, "-");
        if (type === "signin") {
            type = "sign-in";
        } else if (type === "signup") {
            type = "sign-up";
        }
        if (!titles[type]) {
            type = "sign-in";
        }
        var white = String(data.color || "black").toLowerCase() === "white";
        var border = data.border === undefined ? false : flag(String(data.border).toLowerCase());
        var mode = String(data.mode || "center-align").toLowerCase();
        var logoOnly = mode === "logo-only";
        var height = data.height === "100%" ? HEIGHT_MAX : number(data.height, 32, HEIGHT_MIN, HEIGHT_MAX);
        var fullWidth = data.width === "100%";
        var width = logoOnly ? height : number(data.width, 200, WIDTH_MIN, WIDTH_MAX);
        var radius = Math.min(number(data.borderRadius, 15, 0, RADIUS_MAX), Math.floor(height / 2));
        var title = titles[type];

        var button = document.createElement("div");
        button.setAttribute("role", "button");
        button.setAttribute("tabindex", "0");
        button.setAttribute("aria-label", title);
        button.setAttribute("lang", locale.replace("_", "-"));
        button.className = "appleid-signin-button";
        var style = button.style;
        style.display = "inline-flex";
        style.alignItems = "center";
        style.justifyContent = mode === "left-align" ? "flex-start" : "center";
        style.boxSizing = "border-box";
        style.height = height + "px";
        style.width = fullWidth && !logoOnly ? "100%" : width + "px";
        style.minWidth = logoOnly ? height + "px" : WIDTH_MIN + "px";
        style.borderRadius = radius + "px";
        style.margin = Math.ceil(height / 10) + "px";
        style.padding = mode === "left-align" ? "0 " + css(height * 0.3) + "px" : "0";
        style.gap = css(height * 0.12) + "px";
        style.fontFamily = '-apple-system,BlinkMacSystemFont,"SF Pro Text","Helvetica Neue","PingFang SC",Helvetica,Arial,sans-serif';
        style.fontWeight = "500";
        style.fontSize = css(height * 0.43) + "px";
        style.whiteSpace = "nowrap";
        style.overflow = "hidden";
        style.cursor = "pointer";
        style.userSelect = "none";
        style.background = white ? "#fff" : "#000";
        style.color = white ? "#000" : "#fff";
        style.border = "1px solid " + (white && border ? "#000" : "transparent");
        button.appendChild(logo(height * (logoOnly ? 0.56 : 0.46)));
        if (!logoOnly) {
            var label = document.createElement("span");
            label.textContent = title;
            button.appendChild(label);
        }
        function activate(event) {
            event.preventDefault();
            var result = signIn();
            if (result && typeof result.catch === "function") {
                // The outcome also goes to the AppleIDSignInOn… events: nothing is left unhandled.
                result.catch(function () {});
            }
        }
        button.addEventListener("click", activate);
        button.addEventListener("keydown", function (event) {
            if (event.key === "Enter" || event.key === " ") {
                activate(event);
            }
        });
        while (wrapper.firstChild) {
            wrapper.removeChild(wrapper.firstChild);
        }
        wrapper.appendChild(button);
    }

    window.AppleID = {
        auth: {
            init: init,
            signIn: signIn,
            renderButton: renderButton
        }
    };

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", renderButton);
    } else {
        renderButton();
    }
})();
