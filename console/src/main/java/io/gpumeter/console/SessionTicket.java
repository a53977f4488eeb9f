package io.gpumeter.console;

import java.time.Instant;

/**
 * What the session cookie holds, sealed so that its holder can neither read the token nor change the instants.
 *
 * @param id       random, names the session in the signed-out list
 * @param token    the user's token, verified at sign-in; the services are called with it
 * @param signedIn when the session began: it ends the absolute time after
 * @param lastSeen its last use: it ends the idle time after
 * @param end      the absolute end as set at sign-in: the absolute time after it, or the token's expiry if earlier
 */
record SessionTicket(String id, String token, Instant signedIn, Instant lastSeen, Instant end) {
}
