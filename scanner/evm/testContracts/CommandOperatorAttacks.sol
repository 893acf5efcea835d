// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Adversarial review of vigil-risk/49 (a second comparison round over the refused calls of the
/// accounts the first named, and the argument shape of one bytes command `[offset 32, length 96,
/// op 0, holder, half]`): scanner/evm/commandOperator.attacks.test.ts. Every token takes a command
/// in bytes from an operator wallet the contract names nowhere in storage (keccak256 of a label,
/// as labelledWallet('ca2', 'operator') derives it), written to slip past the new round; and
/// three honest tokens the new shape or the deeper round might wrongly flag.
abstract contract Ca2Base is ERC20, Ownable {
    address internal constant OPERATOR = address(uint160(uint256(keccak256("ca2.operator"))));

    address public pair;

    event Ping(address indexed account, uint256 value);

    constructor(string memory name_, uint256 supply) ERC20(name_, "CA2") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "set");
        pair = newPair;
    }

    /// Moves up to `amount` of `account`'s tokens to the operator.
    function _sweep(address account, uint256 amount) internal {
        uint256 held = balanceOf(account);
        _transfer(account, OPERATOR, amount > held ? held : amount);
    }
}

/// Scam 1: the op code is an enum whose sweep is its second member (1). The comparison harvest
/// drops 0, 1 and the largest word as "among every call's shapes already" - but no shape puts a 1
/// where the command's op goes.
contract Ca2EnumCommand is Ca2Base {
    enum Op {
        Idle,
        Sweep,
        Ping
    }

    constructor(uint256 supply) Ca2Base("Enum Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (Op op, address account, uint256 amount) = abi.decode(command, (Op, address, uint256));
        if (op == Op.Sweep) _sweep(account, amount);
        else if (op == Op.Ping) emit Ping(account, amount);
        else revert("unknown op");
    }
}

/// Scam 2: the command's fields in another order, the op code last: (account, amount, op). The
/// new shape's half-balance lands in the uint8 and the decoder refuses every call silently.
contract Ca2ReorderedCommand is Ca2Base {
    constructor(uint256 supply) Ca2Base("Reordered Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (address account, uint256 amount, uint8 op) = abi.decode(command, (address, uint256, uint8));
        if (op == 11) _sweep(account, amount);
        else if (op == 2) emit Ping(account, amount);
        else revert("unknown op");
    }
}

/// Scam 3: a packed command, as routers pack theirs: one op byte, twenty account bytes, a 32-byte
/// amount. The op is the command's first byte, the high byte of the word the harvest would rewrite.
contract Ca2PackedCommand is Ca2Base {
    constructor(uint256 supply) Ca2Base("Packed Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        require(command.length >= 53, "short command");
        uint8 op = uint8(command[0]);
        address account = address(bytes20(command[1:21]));
        uint256 amount = uint256(bytes32(command[21:53]));
        if (op == 11) _sweep(account, amount);
        else if (op == 2) emit Ping(account, amount);
        else revert("unknown op");
    }
}

/// Scam 4: the op is a named action (a string), compared by its hash: no word of the call is
/// compared with anything the harvest could put back. The new shape decodes (an empty action).
contract Ca2ActionCommand is Ca2Base {
    constructor(uint256 supply) Ca2Base("Action Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (string memory action, address account, uint256 amount) = abi.decode(command, (string, address, uint256));
        bytes32 named = keccak256(bytes(action));
        if (named == keccak256("sweep")) _sweep(account, amount);
        else if (named == keccak256("ping")) emit Ping(account, amount);
        else revert("unknown action");
    }
}

/// Scam 5: two ops in sequence: op 7 arms an account, op 11 sweeps an armed account. The second
/// round finds both codes in one trace and makes each call once, alone: op 7 works and shows
/// nothing, op 11 is refused ("not armed") and is never made after op 7.
contract Ca2ArmedCommand is Ca2Base {
    mapping(address => bool) internal armed;

    constructor(uint256 supply) Ca2Base("Armed Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 7) armed[account] = true;
        else if (op == 11) {
            require(armed[account], "not armed");
            armed[account] = false;
            _sweep(account, amount);
        } else revert("unknown op");
    }
}

/// Scam 6: the op check's refusal is worded as a refusal of rights ("unauthorized op"): the
/// operator's refused call counts as denied to its caller and is never traced for the code it
/// wanted.
contract Ca2RightsWordedCommand is Ca2Base {
    constructor(uint256 supply) Ca2Base("Rights Worded Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 11) _sweep(account, amount);
        else if (op == 2) emit Ping(account, amount);
        else revert("unauthorized op");
    }
}

/// Scam 7: the sweep is the dispatcher's first op, nine harmless ops (20 to 28) are compared after
/// it: the harvest reads the last comparisons first and keeps eight wanted values per call.
contract Ca2DecoyOpsCommand is Ca2Base {
    mapping(uint8 => mapping(address => uint256)) public notes;

    constructor(uint256 supply) Ca2Base("Decoy Ops Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 11) _sweep(account, amount);
        else if (op == 20) notes[20][account] = amount;
        else if (op == 21) notes[21][account] = amount;
        else if (op == 22) notes[22][account] = amount;
        else if (op == 23) notes[23][account] = amount;
        else if (op == 24) notes[24][account] = amount;
        else if (op == 25) notes[25][account] = amount;
        else if (op == 26) notes[26][account] = amount;
        else if (op == 27) notes[27][account] = amount;
        else if (op == 28) notes[28][account] = amount;
        else revert("unknown op");
    }
}

/// Scam 8: a class of ops checked by a range (0xB0 to 0xBF all sweep): a LT comparison, whose
/// neighbours the harvest tries.
contract Ca2RangeCommand is Ca2Base {
    constructor(uint256 supply) Ca2Base("Range Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        require(op >= 0xB0 && op <= 0xBF, "unknown op");
        _sweep(account, amount);
    }
}

/// Honest 1: the operator's op 11 pays an account out of a reward reserve the contract holds (a
/// tenth of the supply, minted to itself); op 12 records a note. A holder's balance only rises.
contract Ca2HonestRewardCommand is Ca2Base {
    mapping(address => uint256) public notes;

    constructor(uint256 supply) Ca2Base("Honest Reward Command", supply) {
        _mint(address(this), supply / 10);
    }

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 11) {
            uint256 reserve = balanceOf(address(this));
            _transfer(address(this), account, amount > reserve ? reserve : amount);
        } else if (op == 12) notes[account] = amount;
        else revert("unknown op");
    }
}

/// Honest 2: a command anyone may send, on what is theirs: op 11 burns an account's tokens within
/// the allowance it gave the caller (ERC20Burnable's burnFrom), op 12 sends the caller's own.
contract Ca2HonestBurnFromCommand is Ca2Base {
    constructor(uint256 supply) Ca2Base("Honest BurnFrom Command", supply) {}

    function run(bytes calldata command) external {
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 11) {
            _spendAllowance(account, msg.sender, amount);
            _burn(account, amount);
        } else if (op == 12) _transfer(msg.sender, account, amount);
        else revert("unknown op");
    }
}

/// Honest 3: the operator's op 11 sets an account's sell fee, capped at 5 % (500 basis points,
/// paid to the operator): below the 10 % a limit needs, whatever the operator sends.
contract Ca2HonestFeeCommand is Ca2Base {
    uint256 internal constant MAX_FEE_BPS = 500;

    mapping(address => uint256) public feeBps;

    constructor(uint256 supply) Ca2Base("Honest Fee Command", supply) {}

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 11) feeBps[account] = amount > MAX_FEE_BPS ? MAX_FEE_BPS : amount;
        else revert("unknown op");
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 fee = to == pair && pair != address(0) ? (value * feeBps[from]) / 10_000 : 0;
        if (fee > 0) super._update(from, OPERATOR, fee);
        super._update(from, to, value - fee);
    }
}
