#!/usr/bin/env python3
"""A small VideoWorld client in plain Python (standard library only): copy it into your project.

    python3 examples/videoworld_client.py [--url http://127.0.0.1:8080] [--stream demo] [--token T]

prints the stream's shots and the answer to a question, with the frames each clip rests on.
"""
import argparse
import json
import sys
import urllib.error
import urllib.request


class VideoWorldError(Exception):
    """An error answer from the service: the HTTP status and the service's {"error": {...}} body."""

    def __init__(self, status, error):
        super().__init__(f"{status} {error.get('code', '')}: {error.get('message', '')}"
                         + (f" (field {error['field']})" if error.get("field") else ""))
        self.status = status
        self.error = error


class VideoWorld:
    """The REST API: every tool is POST /v1/tools/{name}; /v1/ask runs the agent."""

    def __init__(self, url="http://127.0.0.1:8080", token=None, timeout=60):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method="GET" if body is None else "POST")
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            try:
                error = json.load(e).get("error", {})
            except ValueError:
                error = {"message": e.reason}
            raise VideoWorldError(e.code, error) from None

    def tools(self):
        return self._request("/v1/tools")

    def tool(self, name, **args):
        return self._request("/v1/tools/" + name, args)

    def ask(self, question, streams):
        return self._request("/v1/ask", {"question": question, "stream_ids": list(streams)})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--stream", default="demo")
    p.add_argument("--token")
    p.add_argument("--question", default="What happens after the first cut?")
    a = p.parse_args()
    vw = VideoWorld(a.url, a.token)
    try:
        info = vw.tool("get_video_info", video_id=a.stream)
        print(f"{a.stream}: {info.get('duration')} s, {info.get('source_kind')}")
        shots = vw.tool("get_temporal_structure", video_id=a.stream, granularity="fine")
        for s in shots.get("segments", []):
            print(f"  shot {s.get('segment_id')}: {s.get('start_time')}-{s.get('end_time')} s ({s.get('transition_type')})")
        answer = vw.ask(a.question, [a.stream])
        print("Q:", a.question)
        # With a language model configured the agent answers; without one (evidence mode) the message says so.
        print("A:", answer.get("answer") or answer.get("message"))
        for clip in answer.get("evidence", [])[:3]:
            print(f"  clip {clip['clip']}: {clip['stream_id']} {clip['start_time']}-{clip['end_time']} s,"
                  f" frames {', '.join(clip.get('frame_ids', []))}")
        vw.tool("get_video_info", video_id="no-such-stream-" + a.stream)
    except VideoWorldError as e:
        if e.status == 404:
            print("an unknown stream is a 404:", e)
            return 0
        print("error:", e, file=sys.stderr)
        return 1
    except urllib.error.URLError as e:
        print(f"cannot reach {a.url}: {e.reason} (is 'bin/videoworld demo' running?)", file=sys.stderr)
        return 1
    print("error: an unknown stream was not refused", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
