#!/usr/bin/python3
"""scenario.py SCENARIO.yaml [WORKDIR] -- check a server-lab scenario and
turn it into what scripts/lab/run needs.

The format is documented in docs/lab.md.  A bad scenario is refused with
"FILE:LINE:COLUMN: KEY: what is wrong" on stderr and exit status 1; nothing
is written then.  With WORKDIR, writes:

  WORKDIR/scenario.env  LAB_NAME, LAB_CPUS, LAB_MEM (MiB), LAB_BOOTS, LAB_NDISKS
                        (QEMU disks besides the root), LAB_NFABRICS,
                        LAB_NDISKS_BY_BOOT (QEMU disks of boot 1, 2, …:
                        fewer once a disk is detached)
  WORKDIR/disks.tsv     one line per device: NAME BUS BYTES CONTENT SERIAL FABRIC
                        (SERIAL: what the guest finds it by; FABRIC: tcp or -)
  WORKDIR/qemu.args     the QEMU arguments of the devices, one per line; the
                        image of device NAME is WORKDIR/disks/NAME.img
  WORKDIR/qemu-boot-N.args  those of boot N: without the devices detached
                        before it (detach_before_boot)
  WORKDIR/script.sh     the scenario's script

Uses python3-yaml (Debian).  Exit status: 0 ok, 1 bad scenario, 2 usage.
"""
import os
import re
import sys

import yaml

MB = 1000 * 1000        # MB/s in the scenario are decimal, like tierwise's
SERIAL_RE = re.compile(r'^[A-Za-z0-9_.-]{1,20}$')
GROUP_RE = re.compile(r'^[A-Za-z0-9_-]{1,32}$')
SIZE_RE = re.compile(r'^([0-9]+)\s*([KMGT]?)(i?B)?$')
ROOT_SERIAL = 'TWLABROOT'
BUSES = ('nvme', 'sata', 'virtio')
CONTENTS = ('blank', 'random', 'ext4-data')
SATA_PORTS = 6          # ports of one QEMU ahci controller
FABRICS = ('tcp',)
MAX_PATHS = 2           # controllers of one nvme-subsys (a dual-port drive)
FABRIC_MAX = 128 << 20  # a fabrics disk is a file on the guest's 512M root
# Keys that make a device a fabrics disk's file (no QEMU device) impossible.
NOT_WITH_FABRIC = ('read_mbps', 'write_mbps', 'read_iops', 'write_iops', 'burst_write_mbps',
                   'burst_seconds', 'group', 'critical_warning', 'paths', 'drive', 'zoned',
                   'detach_before_boot')

DEVICE_KEYS = ('name', 'bus', 'size', 'content', 'read_mbps', 'write_mbps',
               'read_iops', 'write_iops', 'burst_write_mbps', 'burst_seconds',
               'group', 'rotation_rate', 'critical_warning', 'paths', 'drive', 'zoned',
               'fabric', 'detach_before_boot')
TOP_KEYS = ('name', 'machine', 'boots', 'devices', 'groups', 'script', 'reverse_before_boot')


class Bad(Exception):
    """A scenario error at a node: str() is 'KEY: what is wrong'."""

    def __init__(self, node, key, what):
        super().__init__(f'{key}: {what}')
        self.node = node


def tag(node):
    return node.tag.rsplit(':', 1)[-1]


def mapping(node, key, allowed):
    """The pairs of a mapping node as {name: (key_node, value_node)}."""
    if not isinstance(node, yaml.MappingNode):
        raise Bad(node, key, 'expected a mapping')
    out = {}
    for k, v in node.value:
        if not isinstance(k, yaml.ScalarNode):
            raise Bad(k, key, 'a key must be a plain name')
        where = f'{key}.{k.value}' if key else k.value
        if k.value in out:
            raise Bad(k, where, 'given twice')
        if allowed is not None and k.value not in allowed:
            raise Bad(k, where, 'unknown key (known: ' + ', '.join(allowed) + ')')
        out[k.value] = (k, v)
    return out


def scalar(node, key):
    if not isinstance(node, yaml.ScalarNode):
        raise Bad(node, key, 'expected a single value')
    return node.value


def integer(node, key, lo, hi):
    s = scalar(node, key)
    if tag(node) != 'int':
        raise Bad(node, key, f'{s!r} is not a whole number')
    v = int(s.replace('_', ''), 0)
    if v < lo or v > hi:
        raise Bad(node, key, f'{v} is out of range ({lo}..{hi})')
    return v


def number(node, key, lo, hi):
    s = scalar(node, key)
    if tag(node) not in ('int', 'float'):
        raise Bad(node, key, f'{s!r} is not a number')
    v = int(s.replace('_', ''), 0) if tag(node) == 'int' else float(s.replace('_', ''))
    if not (lo <= v <= hi):
        raise Bad(node, key, f'{s} is out of range ({lo:g}..{hi:g})')
    return v


def string(node, key, pattern=None, what=''):
    s = scalar(node, key)
    if tag(node) != 'str' or (pattern and not pattern.match(s)):
        raise Bad(node, key, f'{s!r} is not {what or "a string"}')
    return s


def human(n):
    """512M, 16T: a byte count in the largest binary unit that divides it."""
    for unit in 'TGMK':
        shift = 10 * (' KMGT'.index(unit))
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f'{n >> shift}{unit}'
    return str(n)


def size(node, key, lo, hi):
    """Bytes from 512M, 1G, 4096K or a number of bytes (binary units)."""
    s = scalar(node, key)
    m = SIZE_RE.match(s.strip())
    if not m:
        raise Bad(node, key, f'{s!r} is not a size (e.g. 512M, 1G)')
    v = int(m.group(1)) << (10 * ' KMGT'.index(m.group(2) or ' '))
    if v < lo or v > hi:
        raise Bad(node, key, f'{s} is out of range ({human(lo)}..{human(hi)})')
    return v


def opt(pairs, name, fn, *args, default=None):
    """fn(value node, *args) for key name, or default when it is absent or null."""
    if name not in pairs or tag(pairs[name][1]) == 'null':
        return default
    return fn(pairs[name][1], *args)


def parse_machine(node):
    p = mapping(node, 'machine', ('cpus', 'memory'))
    return (opt(p, 'cpus', integer, 'machine.cpus', 1, 16, default=1),
            opt(p, 'memory', size, 'machine.memory', 128 << 20, 64 << 30,
                default=512 << 20) >> 20)


def parse_groups(node):
    if not isinstance(node, yaml.MappingNode):
        raise Bad(node, 'groups', 'expected a mapping of group names')
    groups = {}
    for name, (k, v) in mapping(node, 'groups', None).items():
        key = f'groups.{name}'
        if not GROUP_RE.match(name):
            raise Bad(k, key, 'a group name is letters, digits, _ and - (at most 32)')
        p = mapping(v, key, ('mbps',))
        if 'mbps' not in p:
            raise Bad(v, key, 'mbps missing (the limit the group shares)')
        groups[name] = number(p['mbps'][1], f'{key}.mbps', 0.001, 1e6)
    return groups


def parse_device(node, i, groups, boots):
    key = f'devices[{i}]'
    p = mapping(node, key, DEVICE_KEYS)
    for need in ('name', 'bus', 'size'):
        if need not in p:
            raise Bad(node, f'{key}.{need}', 'missing')
    d = {'index': i}
    d['name'] = string(p['name'][1], f'{key}.name', SERIAL_RE,
                       'a serial (letters, digits, _ . -, at most 20)')
    d['bus'] = string(p['bus'][1], f'{key}.bus')
    if d['bus'] not in BUSES:
        raise Bad(p['bus'][1], f'{key}.bus', f'{d["bus"]!r} is not one of ' + ', '.join(BUSES))
    d['size'] = size(p['size'][1], f'{key}.size', 1 << 20, 16 << 40)
    d['content'] = opt(p, 'content', string, f'{key}.content', default='blank')
    if d['content'] not in CONTENTS:
        raise Bad(p['content'][1], f'{key}.content',
                  f'{d["content"]!r} is not one of ' + ', '.join(CONTENTS))
    if d['content'] == 'ext4-data' and d['size'] < (8 << 20):
        raise Bad(p['size'][1], f'{key}.size', 'ext4-data needs at least 8M')
    for rate in ('read_mbps', 'write_mbps', 'burst_write_mbps'):
        d[rate] = opt(p, rate, number, f'{key}.{rate}', 0, 1e6, default=0)
    for n in ('read_iops', 'write_iops'):
        d[n] = opt(p, n, integer, f'{key}.{n}', 0, 10 ** 8, default=0)
    d['burst_seconds'] = opt(p, 'burst_seconds', integer, f'{key}.burst_seconds', 0, 3600,
                             default=0)
    check_burst(p, key, d)
    d['group'] = opt(p, 'group', string, f'{key}.group', default='') or ''
    if d['group'] and d['group'] not in groups:
        raise Bad(p['group'][1], f'{key}.group', f'{d["group"]!r} is not under groups:')
    d['rotation_rate'] = opt(p, 'rotation_rate', integer, f'{key}.rotation_rate', 0, 65534,
                             default=0)
    if d['rotation_rate'] and d['bus'] != 'sata':
        raise Bad(p['rotation_rate'][1], f'{key}.rotation_rate', 'only for bus: sata')
    if 1 < d['rotation_rate'] < 1025:
        raise Bad(p['rotation_rate'][1], f'{key}.rotation_rate',
                  '0, 1 (not rotating) or 1025..65534 rpm (QEMU ide-hd)')
    d['critical_warning'] = opt(p, 'critical_warning', integer, f'{key}.critical_warning',
                                0, 255, default=0)
    if d['critical_warning'] and d['bus'] != 'nvme':
        raise Bad(p['critical_warning'][1], f'{key}.critical_warning', 'only for bus: nvme')
    parse_nvme_shape(p, key, d)
    parse_detach(p, key, d, boots)
    return d


def parse_detach(p, key, d, boots):
    """detach_before_boot: N, the disk taken out of the server before boot N
    (2..boots) and left out from then on.  Not a namespace of a controller
    that stays (paths, drive): the whole disk goes."""
    d['detach'] = 0
    if 'detach_before_boot' not in p or tag(p['detach_before_boot'][1]) == 'null':
        return
    at = p['detach_before_boot'][1]
    if boots < 2:
        raise Bad(at, f'{key}.detach_before_boot', 'needs boots: 2 or more (the disk is '
                  'taken out between two boots)')
    d['detach'] = integer(at, f'{key}.detach_before_boot', 2, boots)
    for other in ('paths', 'drive'):
        if other in p and tag(p[other][1]) != 'null':
            raise Bad(at, f'{key}.detach_before_boot', f'not with {other}: (a namespace of '
                      'a controller that stays)')


def nvme_only(p, key, name, d):
    if name in p and tag(p[name][1]) != 'null' and d['bus'] != 'nvme':
        raise Bad(p[name][1], f'{key}.{name}', 'only for bus: nvme')


def parse_nvme_shape(p, key, d):
    """paths, drive, zoned and fabric: the enterprise NVMe shapes."""
    for name in ('paths', 'drive', 'zoned', 'fabric'):
        nvme_only(p, key, name, d)
    d['paths'] = opt(p, 'paths', integer, f'{key}.paths', 1, MAX_PATHS, default=1)
    d['drive'] = opt(p, 'drive', string, f'{key}.drive', SERIAL_RE,
                     'a serial (letters, digits, _ . -, at most 20)', default='') or ''
    if d['drive'] and d['paths'] > 1:
        raise Bad(p['drive'][1], f'{key}.drive', 'not with paths: 2 (a drive\'s namespaces '
                  'are on one controller)')
    d['zone_size'] = 0
    if 'zoned' in p and tag(p['zoned'][1]) != 'null':
        z = mapping(p['zoned'][1], f'{key}.zoned', ('zone_size',))
        zs = opt(z, 'zone_size', size, f'{key}.zoned.zone_size', 1 << 20, 16 << 40,
                 default=128 << 20)
        at = z['zone_size'][1] if 'zone_size' in z else p['zoned'][1]
        if zs & (zs - 1):
            raise Bad(at, f'{key}.zoned.zone_size', f'{human(zs)} is not a power of two '
                      '(the kernel refuses other zone sizes)')
        if d['size'] < zs or d['size'] % zs:
            raise Bad(at, f'{key}.zoned.zone_size',
                      f'{human(zs)} does not divide size {human(d["size"])} into whole zones')
        if d['content'] == 'ext4-data':
            raise Bad(p['zoned'][1], f'{key}.zoned', 'not with content: ext4-data '
                      '(ext4 cannot be made on a zoned namespace)')
        d['zone_size'] = zs
    d['fabric'] = opt(p, 'fabric', string, f'{key}.fabric', default='') or ''
    if d['fabric'] == 'loop':
        raise Bad(p['fabric'][1], f'{key}.fabric', "'loop' cannot be: the guest kernel "
                  '(Debian linux-image-amd64) is built without CONFIG_NVME_TARGET_LOOP; '
                  'use tcp (nvmet-tcp on 127.0.0.1)')
    if d['fabric'] and d['fabric'] not in FABRICS:
        raise Bad(p['fabric'][1], f'{key}.fabric',
                  f'{d["fabric"]!r} is not one of ' + ', '.join(FABRICS))
    if d['fabric']:
        for other in NOT_WITH_FABRIC:
            if other in p and tag(p[other][1]) != 'null':
                raise Bad(p[other][1], f'{key}.{other}', 'not with fabric: (the disk is a file '
                          'in the guest, exported by nvmet)')
        if d['content'] != 'blank':
            raise Bad(p['content'][1], f'{key}.content', 'only blank with fabric:')
        if d['size'] > FABRIC_MAX:
            raise Bad(p['size'][1], f'{key}.size', f'at most {human(FABRIC_MAX)} with fabric: '
                      '(a file on the guest\'s root disk)')
    d['serial'] = d['drive'] or d['name']


def check_burst(p, key, d):
    """burst_write_mbps and burst_seconds come together, above write_mbps
    (QEMU: bps-write-max needs bps-write and exceeds it)."""
    b, s = d['burst_write_mbps'], d['burst_seconds']
    if b and not s:
        raise Bad(p['burst_write_mbps'][1], f'{key}.burst_seconds', 'missing (with burst_write_mbps)')
    if s and not b:
        raise Bad(p['burst_seconds'][1], f'{key}.burst_write_mbps', 'missing (with burst_seconds)')
    if b and not d['write_mbps']:
        raise Bad(p['burst_write_mbps'][1], f'{key}.write_mbps',
                  'must be set with burst_write_mbps (the rate after the burst)')
    if b and b <= d['write_mbps']:
        raise Bad(p['burst_write_mbps'][1], f'{key}.burst_write_mbps',
                  f'{b:g} is not above write_mbps {d["write_mbps"]:g}')


def parse(node):
    if node is None:
        raise Bad(None, 'name', 'the scenario is empty')
    top = mapping(node, '', TOP_KEYS)
    for need in ('name', 'devices'):
        if need not in top:
            raise Bad(node, need, 'missing')
    sc = {'name': string(top['name'][1], 'name', re.compile(r'^[A-Za-z0-9_.-]+$'),
                         'a name (letters, digits, _ . -)')}
    sc['cpus'], sc['mem'] = parse_machine(top['machine'][1]) if 'machine' in top else (1, 512)
    sc['boots'] = opt(top, 'boots', integer, 'boots', 1, 20, default=1)
    sc['reverse'] = 0
    if 'reverse_before_boot' in top and tag(top['reverse_before_boot'][1]) != 'null':
        at = top['reverse_before_boot'][1]
        if sc['boots'] < 2:
            raise Bad(at, 'reverse_before_boot', 'needs boots: 2 or more (the disks are '
                      'attached in another order between two boots)')
        sc['reverse'] = integer(at, 'reverse_before_boot', 2, sc['boots'])
    sc['groups'] = parse_groups(top['groups'][1]) if 'groups' in top else {}
    devs = top['devices'][1]
    if not isinstance(devs, yaml.SequenceNode) or not devs.value:
        raise Bad(devs, 'devices', 'expected a list of at least one device')
    sc['devices'] = [parse_device(n, i, sc['groups'], sc['boots'])
                     for i, n in enumerate(devs.value)]
    seen = {}
    for d, n in zip(sc['devices'], devs.value):
        low = d['name'].lower()
        if low == ROOT_SERIAL.lower():
            raise Bad(n, f'devices[{d["index"]}].name', f'{ROOT_SERIAL} is the lab\'s root disk')
        if low in seen:
            raise Bad(n, f'devices[{d["index"]}].name',
                      f'{d["name"]!r} is the name of devices[{seen[low]}] too')
        seen[low] = d['index']
    check_drives(sc['devices'], devs.value, seen)
    sc['script'] = opt(top, 'script', string, 'script', default='') or ''
    return sc


def check_drives(devices, nodes, names):
    """A drive's name is no device's name (the guest finds both by serial);
    the namespaces of one drive agree on critical_warning (one controller)."""
    warn = {}
    for d, n in zip(devices, nodes):
        if not d['drive']:
            continue
        at = next(v for k, v in n.value if k.value == 'drive')
        low = d['drive'].lower()
        if low in names:
            raise Bad(at, f'devices[{d["index"]}].drive',
                      f'{d["drive"]!r} is the name of devices[{names[low]}]')
        if low == ROOT_SERIAL.lower():
            raise Bad(at, f'devices[{d["index"]}].drive', f'{ROOT_SERIAL} is the lab\'s root disk')
        if warn.setdefault(low, d['critical_warning']) != d['critical_warning']:
            raise Bad(at, f'devices[{d["index"]}].critical_warning',
                      f'differs from another namespace of drive {d["drive"]!r} (one controller)')


def nvme_dev(d, top, ctrls):
    """The -device arguments of NVMe device d on block node top.  A plain
    disk is a controller with its namespace; paths: 2 is one nvme-subsys
    with two controllers sharing the namespace; drive: NAME is a namespace
    of the one controller of that drive (made at its first device, kept in
    ctrls); zoned: makes the namespace zoned."""
    warn = f',smart_critical_warning={d["critical_warning"]}' if d['critical_warning'] else ''
    n = f'd{d["index"]}'
    if d['paths'] == 1 and not d['drive'] and not d['zone_size']:
        return ['-device', f'nvme,serial={d["name"]},drive={top}{warn}']
    args = []
    ns = f'nvme-ns,drive={top}'
    if d['paths'] > 1:
        args += ['-device', f'nvme-subsys,id={n}s,nqn={d["name"]}']
        for c in range(d['paths']):
            args += ['-device', f'nvme,id={n}c{c},serial={d["name"]},subsys={n}s{warn}']
        ns += f',bus={n}c0,nsid=1,shared=on'
    elif d['drive']:
        low = d['drive'].lower()
        if low not in ctrls:
            ctrls[low] = [f'{n}c', 0]
            args += ['-device', f'nvme,id={n}c,serial={d["drive"]}{warn}']
        ctrls[low][1] += 1
        ns += f',bus={ctrls[low][0]},nsid={ctrls[low][1]}'
    else:
        args += ['-device', f'nvme,id={n}c,serial={d["name"]}{warn}']
        ns += f',bus={n}c,nsid=1'
    if d['zone_size']:
        ns += f',zoned=on,zoned.zone_size={human(d["zone_size"])}'
    return args + ['-device', ns]


def throttle_props(d):
    """QEMU throttle-group properties of the device's own limits."""
    props = []
    for k, q in (('read_mbps', 'x-bps-read'), ('write_mbps', 'x-bps-write'),
                 ('burst_write_mbps', 'x-bps-write-max')):
        if d[k]:
            props.append(f'{q}={int(round(d[k] * MB))}')
    for k, q in (('read_iops', 'x-iops-read'), ('write_iops', 'x-iops-write')):
        if d[k]:
            props.append(f'{q}={d[k]}')
    if d['burst_seconds']:
        props.append(f'x-bps-write-max-length={d["burst_seconds"]}')
    return props


def attached(d, boot):
    """Device d is in the server at boot (a fabrics disk never is a QEMU one)."""
    return not d['fabric'] and not (d['detach'] and boot >= d['detach'])


def qemu_args(sc, workdir, boot=1):
    """The QEMU arguments of boot: per device attached then a file node, a
    raw node, its own throttle filter, its group's throttle filter, then the
    device."""
    args = []
    gid = {}
    for j, (name, mbps) in enumerate(sorted(sc['groups'].items())):
        gid[name] = f'grp{j}'
        args += ['-object', f'throttle-group,id=grp{j},x-bps-total={int(round(mbps * MB))}']
    sata = 0
    ctrls = {}
    # reverse_before_boot: from that boot on the disks are attached in the
    # reverse order (other ports, other PCI slots): their kernel names change
    order = sc['devices'][::-1] if sc.get('reverse') and boot >= sc['reverse'] else sc['devices']
    for d in order:
        if not attached(d, boot):
            continue    # detached, or a file in the guest (guest-init.sh)
        n = f'd{d["index"]}'
        img = os.path.join(workdir, 'disks', d['name'] + '.img')
        args += ['-blockdev', f'driver=file,node-name={n}f,filename={img}',
                 '-blockdev', f'driver=raw,node-name={n}r,file={n}f']
        top = f'{n}r'
        props = throttle_props(d)
        if props:
            args += ['-object', ','.join([f'throttle-group,id={n}tg'] + props),
                     '-blockdev', f'driver=throttle,node-name={n}t,throttle-group={n}tg,file={top}']
            top = f'{n}t'
        if d['group']:
            args += ['-blockdev', f'driver=throttle,node-name={n}g,'
                     f'throttle-group={gid[d["group"]]},file={top}']
            top = f'{n}g'
        if d['bus'] == 'nvme':
            args += nvme_dev(d, top, ctrls)
            continue
        if d['bus'] == 'sata':
            if sata % SATA_PORTS == 0:
                args += ['-device', f'ahci,id=ahci{sata // SATA_PORTS}']
            dev = (f'ide-hd,bus=ahci{sata // SATA_PORTS}.{sata % SATA_PORTS},'
                   f'drive={top},serial={d["name"]}')
            if d['rotation_rate']:
                dev += f',rotation_rate={d["rotation_rate"]}'
            sata += 1
        else:
            # an I/O thread of its own: the disk's requests are not served
            # in QEMU's main loop behind every other disk's
            args += ['-object', f'iothread,id={n}io']
            dev = f'virtio-blk-pci,drive={top},serial={d["name"]},iothread={n}io'
        args += ['-device', dev]
    return args


def write_out(sc, workdir):
    os.makedirs(os.path.join(workdir, 'disks'), exist_ok=True)
    with open(os.path.join(workdir, 'scenario.env'), 'w') as f:
        f.write(f'LAB_NAME={sc["name"]}\nLAB_CPUS={sc["cpus"]}\nLAB_MEM={sc["mem"]}\n'
                f'LAB_BOOTS={sc["boots"]}\n'
                f'LAB_NDISKS={sum(1 for d in sc["devices"] if not d["fabric"])}\n'
                f'LAB_NFABRICS={sum(1 for d in sc["devices"] if d["fabric"])}\n'
                'LAB_NDISKS_BY_BOOT=\'' +
                ' '.join(str(sum(1 for d in sc['devices'] if attached(d, b)))
                         for b in range(1, sc['boots'] + 1)) + '\'\n')
    with open(os.path.join(workdir, 'disks.tsv'), 'w') as f:
        for d in sc['devices']:
            f.write(f'{d["name"]}\t{d["bus"]}\t{d["size"]}\t{d["content"]}\t{d["serial"]}\t'
                    f'{d["fabric"] or "-"}\n')
    with open(os.path.join(workdir, 'qemu.args'), 'w') as f:
        f.write(''.join(a + '\n' for a in qemu_args(sc, workdir)))
    for b in range(1, sc['boots'] + 1):
        with open(os.path.join(workdir, f'qemu-boot-{b}.args'), 'w') as f:
            f.write(''.join(a + '\n' for a in qemu_args(sc, workdir, b)))
    with open(os.path.join(workdir, 'script.sh'), 'w') as f:
        f.write(sc['script'])


def main(argv):
    if len(argv) not in (2, 3):
        print('usage: scenario.py SCENARIO.yaml [WORKDIR]', file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, encoding='utf-8') as f:
            sc = parse(yaml.compose(f, Loader=yaml.SafeLoader))
    except OSError as e:
        print(f'{path}: {e.strerror}', file=sys.stderr)
        return 1
    except UnicodeDecodeError as e:
        print(f'{path}: not UTF-8 text ({e.reason})', file=sys.stderr)
        return 1
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        where = f'{path}:{m.line + 1}:{m.column + 1}' if m else path
        print(f'{where}: not valid YAML: {e.problem or e.context}', file=sys.stderr)
        return 1
    except yaml.YAMLError as e:
        print(f'{path}: not valid YAML: {e}', file=sys.stderr)
        return 1
    except Bad as e:
        m = e.node.start_mark if e.node is not None else None
        where = f'{path}:{m.line + 1}:{m.column + 1}' if m else path
        print(f'{where}: {e}', file=sys.stderr)
        return 1
    if len(argv) == 3:
        write_out(sc, argv[2])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
