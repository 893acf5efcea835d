-- Fixed-window request count for one caller. KEYS[1] the window's counter.
-- ARGV: window_ms. Returns {count, ms_left_in_window}.
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return {count, redis.call('PTTL', KEYS[1])}
