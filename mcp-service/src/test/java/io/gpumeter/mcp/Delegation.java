package io.gpumeter.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** What the stand-in services were sent: the token of each call, read back. */
final class Delegation {

    private Delegation() {
    }

    /** The claims of the bearer token a call to a service carried. */
    static JsonNode claims(LoggedRequest request) {
        String authorization = request.getHeader("Authorization");
        String token = authorization.substring("Bearer ".length());
        try {
            return Assistant.JSON.readTree(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]),
                    StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> groups(JsonNode claims) {
        List<String> groups = new ArrayList<>();
        claims.path("groups").forEach(g -> groups.add(g.asText()));
        return groups;
    }
}
