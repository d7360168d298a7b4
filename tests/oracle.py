"""A slow, obviously-correct move enumerator: the brute-force oracle.

It knows nothing of tries, anchors or cross-check masks: for every line
segment that could be a maximal main word it tries every dictionary word of
that length, every way the rack (blanks included) can supply the new tiles,
reads each perpendicular word off the board and looks it up, and scores
everything from scratch.
"""

from __future__ import annotations

from itertools import product

from scrabble.rules import Rules

Move = tuple[int, int, str, str, str, int]  # row, col, H/V, word, tiles, score


def _cell(board: list[list[str]], r: int, c: int) -> str:
    n = len(board)
    return board[r][c] if 0 <= r < n and 0 <= c < n else "."


def _supplies(letters: list[str], rack: str) -> list[list[bool]]:
    """Every distinct way to supply `letters` from the rack: True = blank."""
    out = []
    for blanks in product((False, True), repeat=len(letters)):
        need: dict[str, int] = {}
        for ch, is_blank in zip(letters, blanks, strict=True):
            key = "?" if is_blank else ch
            need[key] = need.get(key, 0) + 1
        if all(rack.count(k) >= v for k, v in need.items()):
            out.append(list(blanks))
    return out


def _value(rules: Rules, ch: str) -> int:
    return 0 if ch.islower() else rules.letter_values[ch]


def all_moves(rows: list[str], rack: str, words: set[str], rules: Rules) -> set[Move]:
    n = rules.size
    grid = [list(row) for row in rows]
    empty_board = all(ch == "." for row in rows for ch in row)
    lm = rules.letter_mult.reshape(n, n)
    wm = rules.word_mult.reshape(n, n)
    moves: set[Move] = set()
    for direction in "HV":

        def at(line: int, k: int, d: str = direction) -> tuple[int, int]:
            return (line, k) if d == "H" else (k, line)

        for line in range(n):
            for start in range(n):
                r0, c0 = at(line, start - 1)
                if start > 0 and grid[r0][c0] != ".":
                    continue
                for end in range(start + 1, n):
                    r1, c1 = at(line, end + 1)
                    if end + 1 < n and grid[r1][c1] != ".":
                        continue
                    squares = [at(line, k) for k in range(start, end + 1)]
                    empties = [i for i, (r, c) in enumerate(squares) if grid[r][c] == "."]
                    if not empties or len(empties) > len(rack):
                        continue
                    for word in words:
                        if len(word) != len(squares):
                            continue
                        if any(
                            grid[r][c] != "." and grid[r][c].upper() != word[i]
                            for i, (r, c) in enumerate(squares)
                        ):
                            continue
                        letters = [word[i] for i in empties]
                        for blanks in _supplies(letters, rack):
                            placed = {
                                squares[i]: (ch.lower() if b else ch)
                                for i, ch, b in zip(empties, letters, blanks, strict=True)
                            }
                            move = _check(
                                grid,
                                placed,
                                squares,
                                direction,
                                words,
                                rules,
                                empty_board,
                                lm,
                                wm,
                                len(rack),
                            )
                            if move is not None:
                                moves.add(move)
    return moves


def _check(grid, placed, squares, direction, words, rules, empty_board, lm, wm, rack_len):
    n = rules.size
    if empty_board:
        if rules.opening == "start" and rules.start not in placed:
            return None
    elif rules.connection == "through":
        if not any(grid[r][c] != "." for r, c in squares):
            return None
    else:
        touches = any(grid[r][c] != "." for r, c in squares) or any(
            _cell(grid, r + dr, c + dc) != "."
            for (r, c) in placed
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )
        if not touches:
            return None
    dr, dc = (1, 0) if direction == "H" else (0, 1)  # perpendicular step
    total_cross = 0
    for (r, c), ch in placed.items():
        up = []
        rr, cc = r - dr, c - dc
        while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] != ".":
            up.insert(0, grid[rr][cc])
            rr, cc = rr - dr, cc - dc
        down = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] != ".":
            down.append(grid[rr][cc])
            rr, cc = rr + dr, cc + dc
        if not up and not down:
            continue
        cross = "".join(up) + ch + "".join(down)
        if cross.upper() not in words:
            return None
        s = sum(_value(rules, x) for x in up + down) + _value(rules, ch) * int(lm[r, c])
        total_cross += s * int(wm[r, c])
    if len(placed) == 1 and direction == "V":
        ((r, c),) = placed.keys()
        if _cell(grid, r, c - 1) != "." or _cell(grid, r, c + 1) != ".":
            return None  # listed across
    main = 0
    mult = 1
    word = []
    for r, c in squares:
        if (r, c) in placed:
            ch = placed[(r, c)]
            main += _value(rules, ch) * int(lm[r, c])
            mult *= int(wm[r, c])
        else:
            ch = grid[r][c]
            main += _value(rules, ch)
        word.append(ch)
    score = main * mult + total_cross
    if len(placed) == rules.rack_size:
        score += rules.bingo_bonus
    tiles = "".join(placed[sq] for sq in squares if sq in placed)
    r, c = squares[0]
    return (r, c, direction, "".join(word), tiles, score)
