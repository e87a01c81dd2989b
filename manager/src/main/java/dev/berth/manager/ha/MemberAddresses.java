package dev.berth.manager.ha;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP-IP join's member list by IP address. Given host names (container aliases, pod DNS names),
 * Hazelcast names its members by them, and in the first container runs two replicas started together
 * never reached each other: neither the initial join nor the split-brain merge found the other
 * member. Names that do not resolve yet (a replica whose container or pod is still being created)
 * are retried until the wait runs out, then passed on as names for Hazelcast to retry.
 */
final class MemberAddresses {
    private static final Logger log = LoggerFactory.getLogger(MemberAddresses.class);
    private static final Duration RETRY = Duration.ofMillis(250);

    private MemberAddresses() {}

    static List<String> resolve(List<String> members, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        List<String> resolved = new ArrayList<>();
        for (String member : members) resolved.add(resolve(member.strip(), deadline));
        return resolved;
    }

    private static String resolve(String member, long deadline) {
        int colon = member.lastIndexOf(':');
        boolean hasPort = colon > 0 && member.substring(colon + 1).matches("[0-9]+") && member.indexOf(':') == colon;
        String host = hasPort ? member.substring(0, colon) : member;
        if (host.isEmpty() || host.matches("[0-9.*\\-]+") || host.contains(":")) return member;
        while (true) {
            try {
                String ip = InetAddress.getByName(host).getHostAddress();
                return hasPort ? ip + member.substring(colon) : ip;
            } catch (UnknownHostException notYet) {
                if (System.nanoTime() >= deadline) {
                    log.atWarn().setMessage("cluster member does not resolve; Hazelcast keeps trying it by name")
                            .addKeyValue("member", member).log();
                    return member;
                }
                try {
                    Thread.sleep(RETRY.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return member;
                }
            }
        }
    }
}
