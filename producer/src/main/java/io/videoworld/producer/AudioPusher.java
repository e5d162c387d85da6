package io.videoworld.producer;

import io.videoworld.core.AudioChunk;
import java.io.IOException;
import java.nio.ShortBuffer;
import java.util.function.Consumer;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.Frame;

/**
 * A source's audio track as {@link AudioChunk}s: decoded by FFmpeg (through JavaCV) to 16 kHz mono
 * 16-bit PCM, cut into chunks of one second, each stamped with the presentation time of its first
 * sample on the clock the frames use (FFmpeg's timestamps, in milliseconds). Where the track's
 * timestamps jump ahead of the samples counted (a gap in the audio), the chunk ends and the next
 * starts at the new time. The last chunk is the end-of-audio mark ({@link AudioChunk#end}). Sent
 * keyed by stream id, so one stream's chunks stay in order.
 */
public final class AudioPusher {
    private static final long GAP_MS = 100;

    private AudioPusher() {}

    /** Decodes {@code source}'s audio and hands each chunk to {@code sink}; returns how many. A source without audio gives none. */
    public static long chunks(String source, String streamId, long epochMs, Consumer<AudioChunk> sink) throws IOException {
        try (FFmpegFrameGrabber g = new FFmpegFrameGrabber(source)) {
            g.setAudioChannels(1);
            g.setSampleRate(AudioChunk.RATE);
            g.setSampleFormat(avutil.AV_SAMPLE_FMT_S16);
            g.start();
            if (g.getAudioStream() < 0 || g.getAudioChannels() <= 0) {
                return 0;
            }
            float[] buf = new float[AudioChunk.RATE];
            int filled = 0;
            long chunkPts = -1;
            long seq = 0;
            Frame f;
            while ((f = g.grabSamples()) != null) {
                if (f.samples == null) {
                    continue;
                }
                ShortBuffer sb = (ShortBuffer) f.samples[0];
                long framePts = Math.max(0, f.timestamp) / 1000;
                long expected = chunkPts + filled * 1000L / AudioChunk.RATE;
                if (chunkPts < 0 || framePts > expected + GAP_MS) {
                    if (filled > 0) {
                        sink.accept(AudioChunk.s16(streamId, seq++, epochMs, chunkPts, buf, 0, filled));
                    }
                    chunkPts = framePts;
                    filled = 0;
                }
                while (sb.hasRemaining()) {
                    buf[filled++] = sb.get() / 32768f;
                    if (filled == buf.length) {
                        sink.accept(AudioChunk.s16(streamId, seq++, epochMs, chunkPts, buf, 0, filled));
                        chunkPts += 1000;
                        filled = 0;
                    }
                }
            }
            if (filled > 0) {
                sink.accept(AudioChunk.s16(streamId, seq++, epochMs, chunkPts, buf, 0, filled));
            }
            if (seq > 0) {
                // The sound is over: the job recognises what is still open now rather than when event time passes it.
                sink.accept(AudioChunk.end(streamId, seq++, epochMs, chunkPts + filled * 1000L / AudioChunk.RATE));
            }
            return seq;
        }
    }
}
