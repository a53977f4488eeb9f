package io.gpumeter.collector.http;

import io.micrometer.core.instrument.MeterRegistry;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * Reads a response body of at most a set number of bytes: a larger one is refused, after at most one byte past the
 * limit (or none, when its Content-Length already says so), logged and counted, so that an exporter or an API
 * answering without end cannot exhaust the collector's memory.
 */
public final class BoundedBody {

    private static final Logger LOG = Logger.getLogger(BoundedBody.class);

    /** A body over the limit: the read is refused. */
    public static final class TooLarge extends IOException {
        TooLarge(String what, long limit) {
            super(what + " answered more than " + limit + " bytes; refused");
        }
    }

    private final MeterRegistry metrics;

    public BoundedBody(MeterRegistry metrics) {
        this.metrics = metrics;
    }

    /**
     * @param source        a fixed name for the metric tag: dcgm, prometheus, vllm, kueue
     * @param what          what answered, for the log
     * @param contentLength the declared length, when there is one
     * @throws TooLarge when the body is longer than {@code limit}; the stream is closed either way
     */
    public String read(String source, String what, InputStream body, OptionalLong contentLength, long limit)
            throws IOException {
        try (InputStream in = body) {
            if (contentLength.isPresent() && contentLength.getAsLong() > limit) {
                throw refused(source, what, limit);
            }
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (bytes.length > limit) {
                throw refused(source, what, limit);
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private TooLarge refused(String source, String what, long limit) {
        metrics.counter("gpumeter.collector.scrape.refused", "source", source, "reason", "too-large").increment();
        TooLarge e = new TooLarge(what, limit);
        LOG.warn(e.getMessage());
        return e;
    }
}
