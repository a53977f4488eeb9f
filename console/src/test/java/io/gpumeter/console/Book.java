package io.gpumeter.console;

import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers of a stand-in route that a book works out from the request ({@link StandIn#handle}): the ledger's change
 * book, paged and filtered as the ledger's list is, and alert-service's reviews, recorded as they are posted. The
 * Changes page reads a window of 2,000 nodes' changes ten thousand at a time, and the review page shows what was just
 * posted: answers no test could state one by one.
 */
final class Book implements ResponseDefinitionTransformerV2 {

    static final String NAME = "console-book";
    /** Each route's handler, by its backend and path pattern. */
    static final Map<String, StandIn.Handler> HANDLERS = new ConcurrentHashMap<>();

    private final Backend backend;

    Book(Backend backend) {
        this.backend = backend;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public boolean applyGlobally() {
        return false;
    }

    @Override
    public ResponseDefinition transform(ServeEvent event) {
        Request request = event.getRequest();
        StandIn.Handler handler = HANDLERS.get(backend + " " + event.getTransformerParameters().getString("handler"));
        URI url = URI.create(request.getUrl());
        StandIn.Reply reply = handler == null ? null
                : handler.answer(url.getRawPath(), url.getRawQuery(), request.getBodyAsString(), StandIn.tenant(request));
        if (reply != null) {
            // a book's answers hold no field its service's own answer lacks, as canned ones do not
            Examples.check(backend, url.getRawPath(), reply);
        }
        return (reply != null ? reply : StandIn.Reply.problem(404, "Not Found", "no fixture for " + url.getRawPath())).response().build();
    }
}
