#!/usr/bin/env bash
# The vendor's documented static export script (the only official client), reproduced
# for the benchmarks: `curl -s` to start, `jq -r .jobId`, up to 60 polls 10 s apart,
# exit 1 on `failed`, then `curl` the bundle endpoint and hand `.bundleUrl` on. Like the
# original it never checks an HTTP status code.
#
#   API_KEY=mint_... DOMAIN=docs.example.com [BASE_URL=...] bash bench/vendor-template.sh
#
# Bench-only knobs, defaults as documented: POLL_SECONDS (10; scaled when the emulator's
# clock runs faster) and DEPLOY (`print`: print the link on stdout for the next step;
# `helm`: the docs' `helm upgrade`, with HELM_RELEASE and HELM_CHART).
BASE_URL="${BASE_URL:-https://api.mintlify.com}"

JOB_ID=$(curl -s -X POST "$BASE_URL/v1/static-export/jobs" \
  -H "Authorization: Bearer $API_KEY" \
  -H "Content-Type: application/json" \
  -d "{\"domain\": \"$DOMAIN\"}" | jq -r .jobId)
echo "Started export job $JOB_ID" >&2

for i in $(seq 1 60); do
  STATUS=$(curl -s "$BASE_URL/v1/static-export/jobs/$JOB_ID" \
    -H "Authorization: Bearer $API_KEY" | jq -r .status)
  echo "[$i] status: $STATUS" >&2
  if [ "$STATUS" = "completed" ]; then
    break
  fi
  if [ "$STATUS" = "failed" ]; then
    echo "Export failed" >&2
    exit 1
  fi
  sleep "${POLL_SECONDS:-10}"
done

BUNDLE_URL=$(curl -s -X POST "$BASE_URL/v1/static-export/jobs/$JOB_ID/bundle" \
  -H "Authorization: Bearer $API_KEY" | jq -r .bundleUrl)

if [ "${DEPLOY:-print}" = "helm" ]; then
  helm upgrade "$HELM_RELEASE" "$HELM_CHART" \
    --set staticExport.enabled=true \
    --set staticExport.bundleUrl="$BUNDLE_URL"
else
  echo "$BUNDLE_URL"
fi
