-- Takes one free call from a rolling window, atomically.
-- KEYS[1]  sorted set of the caller's calls of one tool (member = call id, score = time in ms)
-- ARGV     now_ms, window_ms, allotment, call_id
-- Returns  {1, used_after, 0} when granted, {0, used, oldest_ms} when the allotment is spent.
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local allotment = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
if used >= allotment then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, used, tonumber(oldest[2] or now)}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {1, used + 1, 0}
