#!/bin/sh
# A signed private call with curl and openssl, without the package.
#   sh sign.sh PATH [FIELDS]
# PATH is the operation's path, FIELDS its body fields as compact JSON (request and nonce are
# added here), e.g.  sh sign.sh /api/v4/main-account/balance '{"ticker":"USDT"}'
# Reads TXC_BASE_URL, TXC_API_KEY and TXC_API_SECRET from the environment.
# openssl takes the secret as an argument, which other users of a shared machine can see in the
# process list: there, use the Python or JavaScript recipe.
set -eu
path=$1
fields=${2:-'{}'}

# Nonce: a millisecond timestamp, so each call's is greater than the last (GNU date; on macOS,
# gdate from coreutils).
nonce=$(date +%s%3N)

# The body: request and nonce, then the operation's own fields, as compact JSON.
inner=${fields#\{}
inner=${inner%\}}
body="{\"request\":\"$path\",\"nonce\":\"$nonce\"${inner:+,$inner}}"

# Payload: the body's bytes in base64, one line. Signature: HMAC-SHA512 of the payload, keyed
# with the secret, in lowercase hex.
payload=$(printf '%s' "$body" | openssl base64 -A)
signature=$(printf '%s' "$payload" | openssl dgst -sha512 -hmac "$TXC_API_SECRET" | sed 's/^.*= //')

# Exactly those bytes are sent; --fail-with-body exits 22 on an error answer and prints it.
curl --silent --show-error --fail-with-body -X POST "$TXC_BASE_URL$path" \
  -H 'Content-Type: application/json' \
  -H "X-TXC-APIKEY: $TXC_API_KEY" \
  -H "X-TXC-PAYLOAD: $payload" \
  -H "X-TXC-SIGNATURE: $signature" \
  --data-raw "$body"
echo
