-- Moves a value from one of the expected values to a new one, atomically (a state machine's step).
-- KEYS[1]  the value
-- ARGV     expected values (comma-separated), new value
-- Returns  {1, new} when moved, {0, current or ''} when the current value is not an expected one.
local current = redis.call('GET', KEYS[1])
if not current then return {0, ''} end
for expected in string.gmatch(ARGV[1], '[^,]+') do
  if current == expected then
    redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
    return {1, ARGV[2]}
  end
end
return {0, current}
