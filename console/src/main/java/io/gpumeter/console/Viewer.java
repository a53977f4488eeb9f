package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.TemplateData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The signed-in user as the token says: subject, roles and tenant. {@link #parse} reads the claims only; a token signs
 * someone in once {@link TokenCheck} has verified its signature, and a session's token was verified at sign-in. The
 * claims only choose what to show (a tenant sees no fleet pages): every figure comes from a service that verifies the
 * token again and applies its access rules.
 */
@TemplateData
public record Viewer(String token, String subject, List<String> groups, String tenant, Instant expires) {

    private static final String TENANT_PREFIX = "tenant:";
    private static final List<String> FLEET_ROLES = List.of("admin", "operator", "reader", "service");

    /** A tenant token sees its own tenant's pages only; a token with a fleet role and no tenant sees the fleet. */
    public boolean fleet() {
        return tenant == null && groups.stream().anyMatch(FLEET_ROLES::contains);
    }

    /** May record an incident's review (alert-service's access table: operators and admins). */
    public boolean reviews() {
        return tenant == null && groups.stream().anyMatch(g -> g.equals("admin") || g.equals("operator"));
    }

    /** e.g. {@code admin} or {@code tenant acme}, for the header. */
    public String role() {
        return tenant != null ? "tenant " + tenant : String.join(", ", groups);
    }

    /** The token's claims, or empty with the reason when the text is not a token at all or has expired. */
    public static Parsed parse(String token, ObjectMapper json, Instant now) {
        String text = token == null ? "" : token.strip();
        if (text.startsWith("Bearer ") || text.startsWith("bearer ")) {
            text = text.substring(7).strip();
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 3 || parts[1].isEmpty() || !text.matches("[A-Za-z0-9_\\-.]+")) {
            return new Parsed(Optional.empty(), "That is not a token: a token is three dot-separated parts, as ./gpumeter token prints.");
        }
        JsonNode claims;
        try {
            claims = json.readTree(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | IOException e) {
            return new Parsed(Optional.empty(), "That is not a token: its middle part is not readable claims.");
        }
        if (claims == null || !claims.isObject()) {
            return new Parsed(Optional.empty(), "That is not a token: its middle part is not readable claims.");
        }
        JsonNode exp = claims.get("exp");
        if (exp == null || !exp.canConvertToLong()) {
            return new Parsed(Optional.empty(), "That token has no expiry (exp); the services refuse such tokens.");
        }
        Instant expires = Instant.ofEpochSecond(exp.asLong());
        if (!expires.isAfter(now)) {
            return new Parsed(Optional.empty(), "That token expired at " + expires + "; sign in with a fresh one (./gpumeter token).");
        }
        List<String> groups = new ArrayList<>();
        claims.path("groups").forEach(g -> groups.add(g.asText()));
        String tenant = groups.stream().filter(g -> g.startsWith(TENANT_PREFIX)).map(g -> g.substring(TENANT_PREFIX.length()))
                .findFirst().orElse(null);
        String subject = claims.hasNonNull("sub") ? claims.get("sub").asText()
                : claims.hasNonNull("upn") ? claims.get("upn").asText() : "(no subject)";
        return new Parsed(Optional.of(new Viewer(text, subject, List.copyOf(groups), tenant, expires)), null);
    }

    /** A parsed token, or why there is none. */
    public record Parsed(Optional<Viewer> viewer, String problem) {
    }
}
