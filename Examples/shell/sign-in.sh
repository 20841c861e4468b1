#!/usr/bin/env bash
# Sign in with Apple from any language: the emulator from the command line and its admin API with curl.
#
#   Examples/shell/sign-in.sh        (needs juice on PATH — the juice-testkit wheel puts it there — curl, python3)
#
# Starts `juice emulator` on free ports, learns where from its ready line, seeds an Apple ID, completes
# a web sign-in and a device sign-in, checks what was issued, moves the clock, and stops the emulator.
set -euo pipefail

WORK="$(mktemp -d)"
EMULATOR_PID=""
cleanup() {
    [ -n "$EMULATOR_PID" ] && kill "$EMULATOR_PID" 2> /dev/null && wait "$EMULATOR_PID" 2> /dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

TOKEN="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
cat > "$WORK/emulator.json" << JSON
{"admin_token": "$TOKEN", "teams": [{"team_id": "SHELL12345", "keys": []}],
 "apps": [{"team_id": "SHELL12345", "bundle_id": "com.example.shell", "services_ids": ["com.example.shell.web"],
           "redirect_uris": ["http://localhost:3000/callback"], "allow_local_redirects": true}],
 "apple_ids": []}
JSON

# 1. Start it on port 0 and read the one JSON line it prints once it accepts connections.
mkfifo "$WORK/out"
juice emulator --port 0 --ready-json --config "$WORK/emulator.json" --data-dir "$WORK/data" > "$WORK/out" 2>&1 &
EMULATOR_PID=$!
exec 3< "$WORK/out"
URL=""
while IFS= read -r -t 60 line <&3; do
    case "$line" in '{"'*'"ready":true'*) URL="$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["url"])' "$line")"; break ;; esac
done
[ -n "$URL" ] || { echo "the emulator did not start"; exit 1; }
cat <&3 > /dev/null &  # keep draining its output
echo "emulator at $URL"

admin() {  # admin METHOD PATH [JSON]
    curl -fsS -X "$1" "$URL/emulator/admin/$2" -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" ${3:+--data "$3"}
}
json() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }

# 2. A known state and this run's own Apple ID.
admin POST reset '{}' > /dev/null
admin POST seed '{"apple_ids": [{"email": "shell@example.net", "password": "shell password", "first_name": "Shell", "last_name": "User"}]}' > /dev/null

# 3. A web sign-in in one POST (query mode: the code comes back on the redirect).
LOCATION="$(curl -fsS -o /dev/null -w '%{redirect_url}' "$URL/auth/authorize" \
    --data-urlencode client_id=com.example.shell.web --data-urlencode redirect_uri=http://localhost:3000/callback \
    --data-urlencode response_type=code --data-urlencode response_mode=query --data-urlencode state=s1 \
    --data-urlencode account_name=shell@example.net --data-urlencode "password=shell password" --data-urlencode action=continue)"
CODE="$(python3 -c 'import sys, urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query)["code"][0])' "$LOCATION")"
echo "web sign-in: redirected to ${LOCATION%%\?*} with a code"

# 4. The emulator lists it (as a SHA-256 digest), unused.
DIGEST="$(printf '%s' "$CODE" | sha256sum | cut -d' ' -f1)"
admin GET "issued?bundle_id=com.example.shell" | json "['codes'][0]['digest']" | grep -qx "$DIGEST"
echo "issued: the code is listed, unused"

# 5. A device sign-in: what an iPhone's sheet gives the app.
curl -fsS "$URL/emulator/device/authorize" --data-urlencode client_id=com.example.shell \
    --data-urlencode account_name=shell@example.net --data-urlencode "password=shell password" \
    --data-urlencode "scope=name email" --data-urlencode nonce=n1 | json "['user']" > /dev/null
echo "device sign-in: identity token and code issued"

# 6. Codes live five minutes: move the clock instead of waiting.
admin POST clock '{"advance": 301}' | json "['offset']"
admin POST reset '{}' > /dev/null
echo "ok"
