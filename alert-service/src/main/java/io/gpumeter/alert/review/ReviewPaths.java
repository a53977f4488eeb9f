package io.gpumeter.alert.review;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The paths of a review and its exports, with the incident id encoded as one path segment. */
final class ReviewPaths {

    private ReviewPaths() {
    }

    static String review(String incidentId) {
        return "/api/v1/failures/incidents/" + segment(incidentId) + "/review";
    }

    /** Prevention item {@code n} (from 1) of the given version. */
    static String item(String incidentId, int n, int version) {
        return review(incidentId) + "/items/" + n + "?version=" + version;
    }

    static String segment(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
