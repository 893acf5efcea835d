-- Reserves a payment authorization for one request, or reports who holds it.
-- KEYS[1]  the authorization's reservation
-- ARGV     reservation JSON, ttl_ms
-- Returns  {1, ARGV[1]} when reserved now, {0, existing JSON} when already reserved.
local existing = redis.call('GET', KEYS[1])
if existing then return {0, existing} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, ARGV[1]}
