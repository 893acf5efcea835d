-- Releases a lock only for its holder: a holder whose lock expired (and was taken by another)
-- must not release the other's.
-- KEYS[1]  the lock;  ARGV[1]  the holder's token
-- Returns  1 when released, 0 when the lock was not (or no longer) this holder's.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
