#!/usr/bin/env python3
"""Where a download's time went, from a JFR recording of bench/pipeline.sh (PROFILE=out.jfr).

Usage: python3 bench/jfr-phases.py out.jfr
Reads the Java and native method samples (running threads only: parked and selecting threads are left out; a thread
waiting in fsync shows up as a native sample, so disk waits count here) with `jfr print --stack-depth 64` and files
each sample under the first phase whose frame is on its stack, by thread group. Prints the share of each.
"""
import collections
import re
import subprocess
import sys

PHASES = [
    ('PageValidator', 'validate (PageValidator)'),
    ('writeCheckpoint', 'checkpoint rewrite (StagingFolder.writeCheckpoint)'),
    ('Fingerprints.sha256', 'page hash (Fingerprints.sha256)'),
    ('FileChannelImpl.force', 'page and checkpoint fsync'),
    ('StagingFolder.store', 'page write + rename + checkpoint line'),
    ('JobQueue', 'queue (JobQueue.*)'),
    ('ProgressBoard', 'progress report'),
    ('ChapterPublisher', 'publication'),
    ('io.vertx.core.http', 'vert.x http client/server'),
    ('io.netty', 'netty'),
    ('io.mangacircus.reader', 'reader'),
    ('micrometer', 'micrometer'),
]
IDLE = ('doSelect', 'epollWait', 'park')


def main(recording):
    shares = collections.Counter()
    total = 0
    for event in ('jdk.ExecutionSample', 'jdk.NativeMethodSample'):
        text = subprocess.run(['jfr', 'print', '--stack-depth', '64', '--events', event, recording],
                              capture_output=True, text=True, check=True).stdout
        for sample in text.split(event + ' {')[1:]:
            frames = re.findall(r'^\s+([\w.$<>]+)\(.*?\)\s+line:', sample, re.M)
            if not frames or any(idle in frames[0].lower() for idle in (i.lower() for i in IDLE)):
                continue
            thread = re.search(r'sampledThread = "([^"]*)"', sample)
            thread = re.sub(r'-\d+', '', thread.group(1)) if thread else '?'
            stack = ' '.join(frames)
            phase = next((name for key, name in PHASES if key in stack), 'other: ' + frames[0])
            shares[(thread, phase)] += 1
            total += 1
    print('samples (Java + native, running threads):', total)
    for (thread, phase), count in shares.most_common(16):
        print(f'{count / total * 100:5.1f}%  {thread:26s} {phase}')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
