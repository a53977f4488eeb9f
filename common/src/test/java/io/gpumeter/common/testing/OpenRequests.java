package io.gpumeter.common.testing;

import com.github.tomakehurst.wiremock.extension.Parameters;
import com.github.tomakehurst.wiremock.extension.ServeEventListener;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the requests a stand-in holds open, from their arrival to their answer's end, and the most at once. */
final class OpenRequests implements ServeEventListener {

    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    @Override
    public String getName() {
        return "open-requests";
    }

    @Override
    public boolean applyGlobally() {
        return true;
    }

    @Override
    public void beforeMatch(ServeEvent serveEvent, Parameters parameters) {
        most.accumulateAndGet(open.incrementAndGet(), Math::max);
    }

    @Override
    public void afterComplete(ServeEvent serveEvent, Parameters parameters) {
        open.decrementAndGet();
    }

    int most() {
        return most.get();
    }
}
