-- wrk script of benchmark/scaleout/run: a steady load (each connection waits `pause` ms between its requests) over
-- the sample's plaintext and its product pages (answered by the page cache), counting every response that is not
-- 2xx.
-- Arguments (after --): pause in milliseconds.

local paths = { "/plaintext", "/page/1", "/plaintext", "/page/2", "/plaintext", "/page/3", "/plaintext", "/page/4" }
local threads = {}

function setup(thread)
	table.insert(threads, thread)
end

function init(args)
	pause = tonumber(args[1]) or 20
	next_path = 0
	responses = 0
	non_2xx = 0
end

function delay()
	return pause
end

function request()
	next_path = next_path % #paths + 1
	return wrk.format("GET", paths[next_path])
end

function response(status, headers, body)
	responses = responses + 1
	if status < 200 or status > 299 then
		non_2xx = non_2xx + 1
	end
end

function done(summary, latency, requests)
	local answered, failed = 0, 0
	for _, thread in ipairs(threads) do
		answered = answered + thread:get("responses")
		failed = failed + thread:get("non_2xx")
	end
	local errors = summary.errors
	io.write(string.format("responses %d\n", answered))
	io.write(string.format("non_2xx %d\n", failed))
	io.write(string.format("connect_errors %d\n", errors.connect))
	io.write(string.format("read_errors %d\n", errors.read))
	io.write(string.format("write_errors %d\n", errors.write))
	io.write(string.format("timeouts %d\n", errors.timeout))
	io.write(string.format("duration_s %.1f\n", summary.duration / 1e6))
	io.write(string.format("p50_ms %.2f\n", latency:percentile(50) / 1000))
	io.write(string.format("p99_ms %.2f\n", latency:percentile(99) / 1000))
	io.write(string.format("max_ms %.2f\n", latency.max / 1000))
end
