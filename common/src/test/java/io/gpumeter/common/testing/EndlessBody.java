package io.gpumeter.common.testing;

import com.github.tomakehurst.wiremock.common.InputStreamSource;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A body that never ends: one line repeated for as long as the client reads, so that a test can see a client give up
 * on an answer too large without the stand-in holding it. Counts every byte handed out.
 */
final class EndlessBody implements ResponseTransformerV2 {

    static final String NAME = "endless-body";
    static final String LINE = "line";

    private final AtomicLong handedOut = new AtomicLong();

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public boolean applyGlobally() {
        return false;
    }

    @Override
    public Response transform(Response response, ServeEvent serveEvent) {
        byte[] line = serveEvent.getTransformerParameters().getString(LINE).getBytes(StandardCharsets.UTF_8);
        InputStreamSource endless = () -> new Repeating(line, handedOut);
        return Response.Builder.like(response).but().body(endless).build();
    }

    /** The bytes read of every endless body so far, the journal's copy of each answer's start included. */
    long handedOut() {
        return handedOut.get();
    }

    /** The line, again and again. */
    private static final class Repeating extends InputStream {
        private final byte[] line;
        private final AtomicLong counted;
        private int next;

        Repeating(byte[] line, AtomicLong counted) {
            this.line = line;
            this.counted = counted;
        }

        @Override
        public int read() {
            counted.incrementAndGet();
            byte b = line[next];
            next = (next + 1) % line.length;
            return b;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            for (int i = 0; i < length; i++) {
                into[offset + i] = line[next];
                next = (next + 1) % line.length;
            }
            counted.addAndGet(length);
            return length;
        }
    }
}
