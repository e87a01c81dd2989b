package dev.berth.manager.ha;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Which Hazelcast members count as replicas: those at an address of --cluster-members ("host" allows
 * any port on that host, "host:port" that port only; names are compared by name and by the address
 * they resolve to). Hazelcast OSS has no member authentication and, for TCP-IP join, no filter on who
 * may join (trusted interfaces apply to multicast only): anyone who reaches the cluster port with the
 * cluster name becomes a member. What this list decides is that such a member never counts towards
 * minMembersToLead or the join quorum, so it cannot make a minority side look like a majority, and
 * that its arrival is logged as an error. With Kubernetes discovery every member counts (the
 * service's endpoints are the list).
 */
final class MemberAllowList {
    private final List<String> members;

    private MemberAllowList(List<String> members) {
        this.members = List.copyOf(members);
    }

    static MemberAllowList of(ReplicaOptions options) {
        return new MemberAllowList(options.kubernetesServiceDns() != null ? List.of() : options.members());
    }

    boolean allowsEveryone() {
        return members.isEmpty();
    }

    boolean allows(String host, int port) {
        if (members.isEmpty()) return true;
        for (String member : members) {
            String entry = member.strip();
            int colon = entry.lastIndexOf(':');
            boolean hasPort = colon > 0 && entry.indexOf(':') == colon && entry.substring(colon + 1).matches("[0-9]+");
            String listedHost = hasPort ? entry.substring(0, colon) : entry;
            if (hasPort && Integer.parseInt(entry.substring(colon + 1)) != port) continue;
            if (sameHost(listedHost, host)) return true;
        }
        return false;
    }

    private static boolean sameHost(String listed, String actual) {
        if (listed.equalsIgnoreCase(actual)) return true;
        try {
            return InetAddress.getByName(listed).getHostAddress().equals(InetAddress.getByName(actual).getHostAddress());
        } catch (UnknownHostException unresolved) {
            return false;
        }
    }
}
