-- Takes one free call from several rolling windows at once, atomically: the caller's own and its
-- network's (so rotating X-Client-ID on one network cannot mint new trials).
-- KEYS[i]  a sorted set of calls of one tool (member = call id, score = time in ms)
-- ARGV     now_ms, window_ms, call_id, allotment_1, allotment_2, ...
-- Returns  {1, used_after_1, 0} when granted (used_after of KEYS[1]),
--          {0, used_1, oldest_ms} when any window is spent (oldest call of the first spent one).
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
for index, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
end
local used_first = redis.call('ZCARD', KEYS[1])
for index, key in ipairs(KEYS) do
  local used = redis.call('ZCARD', key)
  if used >= tonumber(ARGV[3 + index]) then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return {0, used_first, tonumber(oldest[2] or now)}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, window)
end
return {1, used_first + 1, 0}
