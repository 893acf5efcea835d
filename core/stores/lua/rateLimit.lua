-- Counts one request against several fixed windows at once (a caller's minute and day, and for
-- anonymous callers their network's too).
-- KEYS[i]  the counter of one window;  ARGV[i]  that window's length in ms
-- Returns  {count_1, ttl_ms_1, count_2, ttl_ms_2, ...}
local out = {}
for index, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  -- A counter without an expiry (never expected, but it would count forever) gets one too.
  if count == 1 or redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[index]) end
  out[#out + 1] = count
  out[#out + 1] = redis.call('PTTL', key)
end
return out
