"""A signed private call with Python's standard library, without the package.

    python3 sign.py PATH [FIELDS]

PATH is the operation's path, FIELDS its body fields as JSON (request and nonce are added here),
e.g.  python3 sign.py /api/v4/main-account/balance '{"ticker":"USDT"}'
Reads TXC_BASE_URL, TXC_API_KEY and TXC_API_SECRET from the environment.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.request


def signed_request(base_url, api_key, api_secret, path, fields):
    # Nonce: a millisecond timestamp, so each call's is greater than the last.
    body = {"request": path, "nonce": str(time.time_ns() // 1_000_000), **fields}
    # Compact JSON, non-ASCII as it is: the exact bytes that are signed and sent.
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    payload = base64.b64encode(data).decode("ascii")
    signature = hmac.new(api_secret.encode("utf-8"), payload.encode("ascii"), hashlib.sha512).hexdigest()
    return urllib.request.Request(
        base_url.rstrip("/") + path,
        data=data,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "X-TXC-APIKEY": api_key,
            "X-TXC-PAYLOAD": payload,
            "X-TXC-SIGNATURE": signature,
        },
    )


def main():
    path = sys.argv[1]
    fields = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    request = signed_request(
        os.environ["TXC_BASE_URL"], os.environ["TXC_API_KEY"], os.environ["TXC_API_SECRET"], path, fields
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            print(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        # An error answer: its status and body, and a failing exit code.
        print(f"HTTP {error.code}: {error.read().decode('utf-8')}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
