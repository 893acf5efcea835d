-- Releases a settlement claim, storing its final answer first when there is one.
-- KEYS[1]  where the answer goes (success or refusal key);  KEYS[2]  the lock
-- ARGV     lock token, answer JSON ('' for none), answer ttl_seconds
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
