-- Counts one request against a per-minute and (optionally) a per-day fixed window, atomically.
-- KEYS[1]  counter of the current minute;  KEYS[2]  counter of the current day
-- ARGV     minute_ttl_ms, day_ttl_ms, day_enabled (1/0)
-- Returns  {minute_count, day_count, minute_ttl_ms, day_ttl_ms}
local minute = redis.call('INCR', KEYS[1])
if minute == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local day = 0
local day_ttl = -1
if ARGV[3] == '1' then
  day = redis.call('INCR', KEYS[2])
  if day == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
  day_ttl = redis.call('PTTL', KEYS[2])
end
return {minute, day, redis.call('PTTL', KEYS[1]), day_ttl}
