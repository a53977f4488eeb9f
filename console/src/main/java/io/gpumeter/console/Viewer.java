package io.gpumeter.console;

import io.gpumeter.common.security.Caller;
import io.gpumeter.common.security.TokenClaims;
import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The signed-in user as the token says: subject, groups and expiry. Who that is — fleet reader or tenant, and which
 * tenant — is the services' own reading of the groups ({@link Caller}), so a token holding {@code admin} and
 * {@code tenant:acme} sees the fleet here as it reads the fleet there. A token signs someone in once
 * {@link TokenCheck} has verified it, and a session's token was verified at sign-in. The claims only choose what to
 * show: every figure comes from a service that verifies the token again and applies its access rules.
 */
@TemplateData
public record Viewer(String token, String subject, List<String> groups, Instant expires) {

    public Viewer {
        groups = List.copyOf(groups);
    }

    public static Viewer of(TokenClaims claims) {
        return new Viewer(claims.token(), claims.subject(), claims.groups(), claims.expires());
    }

    /** The holder of a token whose claims are readable and not expired at {@code now}; nothing is verified here. */
    public static Parsed parse(String token, Instant now) {
        TokenClaims.Read read = TokenClaims.read(token, now);
        return new Parsed(read.claims().map(Viewer::of), read.problem());
    }

    /** The token's roles and tenant, as every service reads them. */
    public Caller caller() {
        return Caller.of(groups);
    }

    /** The one tenant a tenant-only token reads; null for a token that reads the fleet (or nothing). */
    public String tenant() {
        return caller().confinedTo().orElse(null);
    }

    /** Reads every tenant's figures: shown the fleet's pages. */
    public boolean fleet() {
        return caller().readsEveryTenant();
    }

    /** May record an incident's review, as alert-service's access table says (operators and admins). */
    public boolean reviews() {
        return caller().mayCall("POST", "/api/v1/failures/incidents/-/review");
    }

    /** e.g. {@code admin} or {@code tenant acme}, for the header. */
    public String role() {
        String tenant = tenant();
        return tenant != null ? "tenant " + tenant : String.join(", ", groups);
    }

    /** A token's holder, or why there is none. */
    public record Parsed(Optional<Viewer> viewer, String problem) {
    }
}
