-- One request slot for a target domain: at most ARGV[4] in flight (leases that expire on their
-- own if a worker dies) and at most one start per ARGV[5] ms on average, with a burst of
-- ARGV[6] (GCRA on a theoretical arrival time).
-- KEYS[1] lease sorted set, KEYS[2] theoretical arrival time.
-- ARGV: now_ms, lease_id, lease_ttl_ms, max_in_flight, interval_ms, burst.
-- Returns {1, 0} when granted, {0, wait_ms} when not.
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[3])
local max_in_flight = tonumber(ARGV[4])
local interval = tonumber(ARGV[5])
local burst = tonumber(ARGV[6])

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= max_in_flight then
  return {0, 50}
end

local tat = tonumber(redis.call('GET', KEYS[2]) or now)
if tat < now then tat = now end
local allow_at = tat - interval * (burst - 1)
if now < allow_at then
  return {0, allow_at - now}
end
local next_tat = tat + interval
redis.call('SET', KEYS[2], next_tat, 'PX', next_tat - now + 1000)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl + 1000)
return {1, 0}
