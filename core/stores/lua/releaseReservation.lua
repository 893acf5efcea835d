-- Releases a payment reservation only if it is still held by the same signed payload.
-- KEYS[1]  the reservation
-- ARGV     the holder's payload digest
-- Returns  1 when released, 0 when it is held by another payload (or gone).
local existing = redis.call('GET', KEYS[1])
if not existing then return 0 end
local ok, holder = pcall(cjson.decode, existing)
if not ok or holder['digest'] ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
