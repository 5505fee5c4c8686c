#!/bin/sh
# Answer a question over the host's HTTP API, the way a webhook or a chat bot would.
# Needs ASKSEAM (the host's http://host:port/path), TOKEN and SESSION in the environment.
set -eu

# #region answer-over-http
# The questions waiting in the sessions this token may see.
curl -sS -H "Authorization: Bearer $TOKEN" "$ASKSEAM/questions"
echo

# The rpcIds of the first two (jq picks them out of { "questions": [ … ] }).
RPC_ID=$(curl -sS -H "Authorization: Bearer $TOKEN" "$ASKSEAM/questions" | jq -r '.questions[0].rpcId')
OTHER_ID=$(curl -sS -H "Authorization: Bearer $TOKEN" "$ASKSEAM/questions" | jq -r '.questions[1].rpcId')

# Answer it: the body is { sessionId, answer }; a fitting answer gets 200 and an accepted receipt.
curl -sS -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "{\"sessionId\":\"$SESSION\",\"answer\":{\"answers\":[{\"id\":\"version\",\"selected\":[],\"custom\":\"1.2.3\"},{\"id\":\"environment\",\"selected\":[\"production\"]}]}}" \
  "$ASKSEAM/questions/$RPC_ID/answer"
echo

# Answering again is too late: 409 and a not-pending receipt.
curl -sS -o /dev/null -w '%{http_code}\n' -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "{\"sessionId\":\"$SESSION\",\"answer\":{\"answers\":[]}}" \
  "$ASKSEAM/questions/$RPC_ID/answer"

# Dismiss the other one, saying why: the receipt is accepted and the asker learns it was cancelled.
curl -sS -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"message":"handled by phone"}' \
  "$ASKSEAM/questions/$OTHER_ID/cancel"
echo

# What happened in the session, oldest first; pass ?after=<last id you saw> to read only what is new.
curl -sS -H "Authorization: Bearer $TOKEN" "$ASKSEAM/sessions/$SESSION/events" | jq -r '.events[].type'
# #endregion answer-over-http
