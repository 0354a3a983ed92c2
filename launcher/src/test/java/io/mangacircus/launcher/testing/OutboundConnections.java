package io.mangacircus.launcher.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The TCP connections a process opened itself, read from /proc. */
public final class OutboundConnections {

  private OutboundConnections() {
  }

  /**
   * The process's TCP sockets that are neither listening nor accepted on one of its own listening ports, as
   * {@code local -> remote}: the connections it opened itself.
   */
  public static List<String> of(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      fds.forEach(fd -> {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      });
    }
    List<String[]> sockets = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", String.valueOf(pid), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      Files.readAllLines(file).stream().skip(1).map(l -> l.trim().split("\\s+"))
          .filter(cols -> inodes.contains(cols[9])).forEach(sockets::add);
    }
    Set<String> listeningPorts = new HashSet<>();
    sockets.stream().filter(c -> "0A".equals(c[3])).forEach(c -> listeningPorts.add(port(c[1])));
    List<String> outbound = new ArrayList<>();
    for (String[] c : sockets) {
      // 0A listening; 07 closed (unconnected); others: connected, accepted on a listening port or opened by us
      if (!"0A".equals(c[3]) && !"07".equals(c[3]) && !listeningPorts.contains(port(c[1]))) {
        outbound.add(c[1] + " -> " + c[2] + " state " + c[3]);
      }
    }
    return outbound;
  }

  private static String port(String hexAddress) {
    return String.valueOf(Integer.parseInt(hexAddress.substring(hexAddress.indexOf(':') + 1), 16));
  }
}
