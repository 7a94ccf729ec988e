#!/bin/sh
# Shell tests: plain `printf | websearch-mcp`, as a script or a human would drive the server.
# Each check pipes JSON lines in and greps the JSON lines that come out. Network: loopback only.
set -u
passed=0
failed=0

check() {  # check NAME EXPECTED_PATTERN OUTPUT
    if printf '%s\n' "$3" | grep -q -- "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s: expected /%s/ in:\n%s\n' "$1" "$2" "$3" >&2
    fi
}

# Point every upstream at a closed loopback port, so nothing can leave the machine.
WEBSEARCH_DDG_HTML_URL=http://127.0.0.1:9/html/
WEBSEARCH_DDG_LITE_URL=http://127.0.0.1:9/lite/
WEBSEARCH_DDG_API_URL=http://127.0.0.1:9/ia/
WEBSEARCH_BING_URL=http://127.0.0.1:9/bing
WEBSEARCH_BRAVE_URL=http://127.0.0.1:9/brave
WEBSEARCH_MOJEEK_URL=http://127.0.0.1:9/mojeek
WEBSEARCH_YAHOO_URL=http://127.0.0.1:9/yahoo
WEBSEARCH_WIKIPEDIA_URL=http://127.0.0.1:9/wikipedia
WEBSEARCH_BACKENDS=duckduckgo
WEBSEARCH_STORE=memory
WEBSEARCH_RETRIES=0
export WEBSEARCH_DDG_HTML_URL WEBSEARCH_DDG_LITE_URL WEBSEARCH_DDG_API_URL WEBSEARCH_RETRIES WEBSEARCH_BING_URL \
    WEBSEARCH_BRAVE_URL WEBSEARCH_MOJEEK_URL WEBSEARCH_YAHOO_URL WEBSEARCH_WIKIPEDIA_URL WEBSEARCH_BACKENDS WEBSEARCH_STORE

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1.0.0","clientInfo":{"name":"sh","version":"1"}}}'

out=$(printf '%s\n' "$INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}' | websearch-mcp)
check "initialize counter-offers 2025-11-25" '"id":1,"result":{"protocolVersion":"2025-11-25"' "$out"
check "tools/list names web_search" '"id":2,"result":{"tools":\[{"name":"web_search"' "$out"
check "tools/list names instant_answer" '"name":"instant_answer"' "$out"
check "exactly two responses" '^2$' "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"

out=$(printf '%s\n' 'not json' '{"jsonrpc":"2.0","id":"x","method":"nope"}' '' \
    '{"jsonrpc":"2.0","id":0,"method":"ping"}' | websearch-mcp)
check "parse error" '"id":null,"error":{"code":-32700' "$out"
check "method not found" '"id":"x","error":{"code":-32601' "$out"
check "ping with id 0" '{"jsonrpc":"2.0","id":0,"result":{}}' "$out"

out=$(printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"invalid.tool","arguments":{}}}' | websearch-mcp)
check "unknown tool" '"error":{"code":-32602,"message":"Tool not found: invalid.tool"}' "$out"

out=$(printf '%s\n' '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"x","max_results":0}}}' | websearch-mcp)
check "argument validation" "Invalid argument 'max_results': must be at least 1" "$out"
check "validation is a tool error" '"isError":true' "$out"

out=$(printf '%s\n' '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"rust"}}}' | websearch-mcp 2>/dev/null)
check "unreachable upstream is a tool error" '"id":5,"result":{"content":\[{"type":"text","text":"DuckDuckGo is unreachable' "$out"

out=$(printf '%s\n' '{"jsonrpc":"2.0","id":6,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' | websearch-mcp)
check "server/discover" '"supportedVersions":\["2026-07-28"\]' "$out"

out=$(printf '%s' '{"jsonrpc":"2.0","id":7,"method":"ping"}' | websearch-mcp)
check "last line without newline is answered at EOF" '"id":7,"result":{}' "$out"

websearch-mcp call web_search query="rust async" >/dev/null 2>&1
check "call exits 1 on a tool error" '^1$' "$?"

printf '%s passed, %s failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
