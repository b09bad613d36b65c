import redis

from ludopat.embedded_redis import free_port, ping, start


def test_embedded_redis_starts_answers_ping_and_stops(tmp_path):
    port = free_port()
    proc = start(port, str(tmp_path))
    try:
        assert ping(port)
        client = redis.Redis(port=port)
        client.set("ludo", "six")
        assert client.get("ludo") == b"six"
        client.close()
    finally:
        proc.terminate()
        proc.wait(10)
    assert not ping(port)
