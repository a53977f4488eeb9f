package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

/**
 * One API call behind a page, as the page shows it: the service, the method ({@code GET}, or {@code POST} for a read
 * that takes its question in a body), the path with its query, and the full URL on that service (for a terminal, with
 * a token); {@code csv} is the console's own download of the same figures, if any.
 */
@TemplateData
public record ApiCall(Backend backend, String method, String pathAndQuery, String url, String csv) {

    public String service() {
        return backend.title();
    }

    public ApiCall withCsv(String consolePath) {
        return new ApiCall(backend, method, pathAndQuery, url, consolePath);
    }
}
